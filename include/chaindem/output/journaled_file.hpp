#pragma once
// HDF5 files that a kill cannot damage: an HDF5 file driver with an undo journal.
//
// HDF5 updates a file's metadata in place while it writes, so a process killed between two
// flushes (SIGKILL, an out-of-memory kill) can leave a file HDF5 will not open again. SWMR
// writing avoids that but takes no new groups or datasets, which a sweep creates for every case.
// This driver writes like HDF5's default one (POSIX pread/pwrite) and also keeps, beside the file
// FILE, a journal FILE.journal: before it overwrites any byte that was in the file at the last
// checkpoint, it appends the byte's old page to the journal. A checkpoint (journal_checkpoint,
// right after H5Fflush, when the file is consistent) starts an empty journal. Opening the file
// for writing after a kill replays the journal (puts the old pages back, cuts what was appended
// since), which returns the file exactly to its last checkpoint, then opens it. A clean close
// removes the journal.
//
// What it protects against: the process dying at any instant (kill -9, a crash, an OOM kill),
// also inside a flush or a checkpoint. Not against the machine losing power: nothing is synced
// to the disk, so that the cost is that of the page cache. The file itself is an ordinary HDF5
// file (no driver information in it): h5py, MATLAB and ParaView read it once closed.

#include <hdf5.h>

#include <string>

namespace chaindem::hdf5 {

/// File access for a file written through the journal (file_access()'s format and settings).
hid_t journaled_file_access();

/// Makes the present state of `file` (opened with journaled_file_access()) the one a kill
/// returns to. Call right after H5Fflush(file, H5F_SCOPE_GLOBAL) succeeded, with nothing written
/// in between. Throws Error (the journal could not be started anew: the old one stays valid).
void journal_checkpoint(hid_t file);

/// Creates an HDF5 file with `access` (HDF5's default driver, or journaled_file_access()) in the
/// new, empty file open for reading and writing on `fd`, which `path` names: HDF5 writes that
/// very file, whatever `path` holds by the time HDF5 opens it, so that a caller whose creation
/// fails removes the file it made and no other. Returns the file, or -1 as H5Fcreate does
/// (error_reason() says why). Where /proc is not mounted, the file on `fd` is removed instead
/// and HDF5 creates a new one under `path` (not following a link): the file HDF5 leaves after
/// failing is then not the one on `fd`.
hid_t create_in(int fd, const std::string& path, hid_t access);

/// The descriptor through which HDF5 reads and writes `file`, opened with HDF5's default driver
/// or with journaled_file_access(); -1 for another driver (a file in memory). The file it names
/// is the one written, whatever its name has come to hold since it was opened.
int file_descriptor(hid_t file);

/// The journal beside `path`.
std::string journal_path(const std::string& path);

/// Returns `path` to its last checkpoint if a kill left its journal (which is then removed);
/// opening it for writing does the same. A file killed before its first checkpoint becomes
/// empty, which HDF5 would open as a new file. Throws Error (the journal is damaged, or the
/// file cannot be written).
void recover_journal(const std::string& path);

}  // namespace chaindem::hdf5
