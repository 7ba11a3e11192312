#include "chaindem/output/compression.hpp"

#include <dlfcn.h>
#include <hdf5.h>

#include "chaindem/output/hdf5_util.hpp"
#include "chaindem/text.hpp"

namespace chaindem {

namespace {

std::string lzf_unavailable() {
  load_filter_libraries();
  hdf5::quiet_errors();
  // H5Zfilter_avail searches the plugin path (HDF5_PLUGIN_PATH, else HDF5's own directory) for
  // a filter it has not registered yet.
  const htri_t available = H5Zfilter_avail(lzf_filter_id);
  H5Eclear2(H5E_DEFAULT);
  if (available > 0) return "";
  std::string where;
  unsigned paths = 0;
  if (H5PLsize(&paths) >= 0)
    for (unsigned k = 0; k < paths; ++k) {
      char path[1024] = {};
      if (H5PLget(k, path, sizeof path) > 0)
        where += (where.empty() ? "'" : ", '") + quoted_path(path) + "'";
    }
  return "the LZF filter (HDF5 filter 32000) is not installed: no plugin for it in " +
         (where.empty() ? std::string("HDF5's plugin path") : where) +
         "; install it (Debian, Ubuntu: apt install hdf5-plugin-lzf; elsewhere set "
         "HDF5_PLUGIN_PATH to the directory of its plugin) or choose gzip or none";
}

}  // namespace

// Debian's LZF plugin (hdf5-plugin-lzf 3.7) calls liblzf but does not name it among the
// libraries it needs, so HDF5 cannot load it ("undefined symbol: lzf_decompress") unless liblzf
// is already loaded with its symbols global. Loading it first makes the plugin load; where the
// plugin names liblzf itself, or there is no liblzf, this changes nothing.
void load_filter_libraries() {
  static const bool loaded = dlopen("liblzf.so.1", RTLD_NOW | RTLD_GLOBAL) != nullptr;
  (void)loaded;
}

std::string compression_unavailable(Compression compression) {
  if (compression != Compression::lzf) return "";  // deflate is built in; none needs nothing
  // Asked once: a sweep builds its cases again on threads that must not call HDF5 unlocked.
  static const std::string problem = lzf_unavailable();
  return problem;
}

}  // namespace chaindem
