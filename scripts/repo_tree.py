"""The files of a source tree, for the checks in scripts/ (check_layers.py, check_sizes.py)."""
import os
import subprocess

SKIPPED_FOLDERS = ("build", ".", "__pycache__")  # prefixes of folders an archive's walk skips


def repo_files(root):
    """Paths (with /, relative to root) of the files git knows below root: tracked, and new ones
    it does not ignore. Where root is not a git checkout (an unpacked archive), every file but
    those in build folders, hidden folders and __pycache__. Raises RuntimeError when git fails
    in a checkout, so that a check never passes on an empty list."""
    if not os.path.exists(os.path.join(root, ".git")):
        found = []
        for folder, subfolders, names in os.walk(root):
            subfolders[:] = [s for s in subfolders if not s.startswith(SKIPPED_FOLDERS)]
            found += [os.path.relpath(os.path.join(folder, n), root).replace(os.sep, "/")
                      for n in names]
        return sorted(found)
    out = subprocess.run(["git", "-C", root, "ls-files", "--cached", "--others",
                          "--exclude-standard"], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"git ls-files failed in {root}: {out.stderr.strip()}")
    # A file deleted in the working tree but not yet in git is listed: skip it.
    return sorted({n for n in out.stdout.splitlines() if os.path.isfile(os.path.join(root, n))})
