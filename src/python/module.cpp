// chaindem._core: the engine and the commands for Python (pybind11). The Python package
// (chaindem/__init__.py) gives it its interface; here: running a case into memory or into its
// file with the GIL released and Ctrl-C honoured, the law registry as records, reading any
// chaindem HDF5 file, and running a command (collide, sweep, compare) with its streams
// captured. C++ exceptions become the package's exceptions with the command line's messages.

#include <pthread.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <csignal>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "chaindem/commands/case_runner.hpp"
#include "chaindem/commands/collide_command.hpp"
#include "chaindem/commands/compare_command.hpp"
#include "chaindem/commands/sweep_command.hpp"
#include "chaindem/io/checkpoint_file.hpp"
#include "chaindem/io/h5md_writer.hpp"
#include "chaindem/io/hdf5_util.hpp"
#include "chaindem/io/output_file.hpp"
#include "chaindem/laws/law.hpp"
#include "chaindem/version.hpp"
#include "hdf5_tree.hpp"

namespace py = pybind11;

namespace chaindem::python {
namespace {

// Ctrl-C during a run: Python's own handler cannot run while the engine holds the thread, so a
// run started from the main thread installs this one for its duration; the run stops between
// steps and Python gets KeyboardInterrupt.
volatile std::sig_atomic_t stop_request = 0;
extern "C" void request_stop(int signal) {
  stop_request = signal;
}

// SIGINT goes to `request_stop` while this lives, in the main thread only (where Python
// receives signals); the previous handler comes back after.
class CtrlC {
 public:
  CtrlC() {
    if (!py::module_::import("threading")
             .attr("current_thread")()
             .is(py::module_::import("threading").attr("main_thread")()))
      return;
    stop_request = 0;
    struct sigaction action {};
    action.sa_handler = request_stop;
    sigemptyset(&action.sa_mask);
    installed_ = sigaction(SIGINT, &action, &previous_) == 0;
  }
  ~CtrlC() {
    if (installed_) sigaction(SIGINT, &previous_, nullptr);
  }
  CtrlC(const CtrlC&) = delete;
  CtrlC& operator=(const CtrlC&) = delete;

 private:
  struct sigaction previous_ {};
  bool installed_ = false;
};

// A Python exception type of the package (set at import).
PyObject* input_error = nullptr;  // chaindem.InputError: exit status 2 on the command line
PyObject* run_error = nullptr;    // chaindem.RunError: exit status 1

// The case, parsed, checked and built as `chaindem run` does; its notes go to Python warnings.
struct PreparedCase {
  CaseConfig cfg;
  RunSetup run;
};
PreparedCase prepare(const std::string& text, const std::string& origin, bool is_path,
                     const std::vector<std::string>& overrides,
                     const std::vector<std::string>& unset) {
  PreparedCase p;
  p.cfg = is_path ? CaseConfig::load(text, overrides, unset)
                  : CaseConfig::parse(text, origin, overrides, unset);
  p.run = build_run(p.cfg);
  p.cfg.forget(p.run.ignored_keys);
  return p;
}

// An HDF5 file that lives in memory only (HDF5's core driver, no file on disk).
hdf5::Handle memory_file() {
  static std::atomic<int> counter{0};
  const hid_t access = hdf5::file_access_in(H5F_LIBVER_V18);
  hdf5::check_status(H5Pset_fapl_core(access, std::size_t{16} << 20, false), "memory file");
  const std::string name = "chaindem-memory-" + std::to_string(counter++);
  const hid_t file = H5Fcreate(name.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access);
  H5Pclose(access);
  return hdf5::Handle(hdf5::check(file, "memory file"), H5Fclose);
}

// run(text, origin, is_path, overrides, unset, output, progress) -> (tree, notes): the run's
// group read whole (hdf5_tree.hpp), from memory or from the file `output` it wrote.
py::tuple run_case(const std::string& text, const std::string& origin, bool is_path,
                   const std::vector<std::string>& overrides, const std::vector<std::string>& unset,
                   const std::optional<std::string>& output, bool progress) {
  PreparedCase p = prepare(text, origin, is_path, overrides, unset);
  py::list notes;
  for (const std::string& note : p.run.notes) notes.append(note);
  if (output) {
    std::vector<std::string> inputs = p.run.input_files;
    if (is_path) inputs.push_back(text);
    check_run_output(*output, inputs);
  }
  CtrlC ctrl_c;
  const RunControl control{progress ? &std::cerr : nullptr, &stop_request, nullptr};
  hdf5::Handle file;
  {
    py::gil_scoped_release released;
    if (output) {
      run_to_file(p.cfg, std::move(p.run), *output, control);
      hdf5::quiet_errors();
      file = hdf5::Handle(
          hdf5::check(H5Fopen(output->c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), "open " + *output),
          H5Fclose);
    } else {
      file = memory_file();
      std::mutex lock;
      PendingRun run = run_to_group(p.cfg, std::move(p.run), file.get(), "run", &lock, control);
      run.commit();
    }
  }
  return py::make_tuple(read_group(file.get(), output ? "/" : "run"), notes);
}

py::dict law_record(const LawEntry& law) {
  py::list parameters;
  for (const ParamSpec& s : law.params) {
    py::dict p;
    p["key"] = std::string(s.key);
    p["unit"] = std::string(s.unit);
    p["description"] = std::string(s.description);
    p["min"] = s.min;
    p["max"] = s.max;
    p["min_inclusive"] = s.min_inclusive;
    p["max_inclusive"] = s.max_inclusive;
    p["range"] = s.range_text();
    p["default"] = s.default_value ? py::object(py::float_(*s.default_value)) : py::none();
    p["default_text"] = std::string(s.default_text);
    parameters.append(p);
  }
  py::dict r;
  r["id"] = std::string(law.id);
  r["title"] = std::string(law.title);
  r["family"] = std::string(to_string(law.family));
  r["citation"] = std::string(law.citation);
  r["formula"] = std::string(law.formula);
  r["damping"] = std::string(law.damping);
  r["notes"] = std::string(law.notes);
  r["tension"] = std::string(to_string(law.tension));
  r["uses_impact_velocity"] = law.uses_impact_velocity();
  r["parameters"] = parameters;
  return r;
}

// command(name, args) -> (exit status, stdout, stderr): a command of the command line, run in
// this process with its streams captured; the GIL is released and Ctrl-C honoured as by run.
py::tuple run_command(const std::string& name, const std::vector<std::string>& args) {
  using Command = int (*)(const std::vector<std::string>&, std::ostream&, std::ostream&);
  static const std::map<std::string, Command> commands{
      {"collide", collide_command}, {"sweep", sweep_command}, {"compare", compare_command}};
  const auto it = commands.find(name);
  if (it == commands.end()) throw std::invalid_argument("no command '" + name + "'");
  std::ostringstream out, err;
  int status = 0;
  {
    // The commands install handlers for SIGINT and SIGTERM: Python's come back after.
    struct sigaction interrupt {
    }, terminate{};
    sigaction(SIGINT, nullptr, &interrupt);
    sigaction(SIGTERM, nullptr, &terminate);
    {
      py::gil_scoped_release released;
      status = it->second(args, out, err);
    }
    sigaction(SIGINT, &interrupt, nullptr);
    sigaction(SIGTERM, &terminate, nullptr);
  }
  return py::make_tuple(status, out.str(), err.str());
}

// read(path, group) -> the group of a chaindem file (hdf5_tree.hpp).
py::tuple read_file(const std::string& path, const std::string& group) {
  hdf5::quiet_errors();
  const hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (id < 0) throw hdf5::Error("cannot open " + path + ": " + hdf5::error_reason());
  const hdf5::Handle file(id, H5Fclose);
  return read_group(file.get(), group);
}

}  // namespace
}  // namespace chaindem::python

PYBIND11_MODULE(_core, m) {
  using namespace chaindem;
  using namespace chaindem::python;
  m.doc() = "chaindem's engine and commands; use the package chaindem, not this module.";
  m.attr("version") = std::string(chaindem::version);
  static py::exception<CaseError> input(m, "InputError", PyExc_ValueError);
  static py::exception<std::runtime_error> failure(m, "RunError", PyExc_RuntimeError);
  input_error = input.ptr();
  run_error = failure.ptr();
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const Interrupted& e) {
      if (e.signal == SIGINT) {
        PyErr_SetNone(PyExc_KeyboardInterrupt);
        return;
      }
      PyErr_SetString(run_error, e.what());
    } catch (const CaseError& e) {  // what the command line refuses with exit status 2
      PyErr_SetString(input_error, e.what());
    } catch (const LawParamError& e) {
      PyErr_SetString(input_error, e.what());
    } catch (const OutputPathError& e) {
      PyErr_SetString(input_error, e.what());
    } catch (const CheckpointError& e) {
      PyErr_SetString(input_error, e.what());
    } catch (const hdf5::Error& e) {
      PyErr_SetString(run_error, e.what());
    } catch (const OutputError& e) {
      PyErr_SetString(run_error, e.what());
    } catch (const std::runtime_error& e) {  // a diverged integration; exit status 1
      PyErr_SetString(run_error, e.what());
    }
  });
  m.def("run", &run_case, py::arg("text"), py::arg("origin"), py::arg("is_path"),
        py::arg("overrides"), py::arg("unset"), py::arg("output"), py::arg("progress"));
  m.def("laws", [] {
    py::list laws;
    for (const LawEntry& law : all_laws()) laws.append(law_record(law));
    return laws;
  });
  m.def("command", &run_command, py::arg("name"), py::arg("args"));
  m.def("read", &read_file, py::arg("path"), py::arg("group") = "/");
}
