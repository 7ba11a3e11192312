#pragma once
// How a run's time series are compressed (case key output.compression): the HDF5 filters chaindem
// offers, each one that h5py, MATLAB and Debian's ParaView can read.

#include <string>

namespace chaindem {

enum class Compression {
  gzip,  ///< shuffle + deflate level 1: built into every HDF5
  lzf,   ///< the LZF filter (HDF5 filter 32000), a plugin: faster, files ~10 % larger
  none,  ///< no filter
};

/// The HDF5 filter id of LZF, registered by h5py (Collette, 2008).
inline constexpr int lzf_filter_id = 32000;

/// Loads what the LZF plugin needs and does not load itself (Debian's names no liblzf), so that
/// HDF5 loads the plugin when a file to read (initial.file, a partial file to continue) or to
/// write asks for it. Makes no HDF5 call; the program calls it first.
void load_filter_libraries();

/// "" when this process can write with `compression`, else why not and how to get it. LZF is a
/// dynamically loaded HDF5 plugin (Debian package hdf5-plugin-lzf); asking loads it.
std::string compression_unavailable(Compression compression);

}  // namespace chaindem
