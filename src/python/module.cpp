// chaindem._core: the engine and the commands for Python (pybind11). The Python package
// (chaindem/__init__.py) gives it its interface; here: running a case into memory or into its
// file with the GIL released and Ctrl-C honoured, the law registry as records, reading any
// chaindem HDF5 file, and running any command of the command line's table
// (commands/command_registry.hpp) with its streams captured. C++ exceptions become the
// package's exceptions with the command line's messages.

#include <pthread.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <csignal>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "chaindem/commands/case_runner.hpp"
#include "chaindem/commands/command_line.hpp"  // existing_output
#include "chaindem/commands/command_registry.hpp"
#include "chaindem/laws/law.hpp"
#include "chaindem/output/checkpoint_file.hpp"
#include "chaindem/output/h5md_writer.hpp"
#include "chaindem/output/hdf5_util.hpp"
#include "chaindem/output/output_file.hpp"
#include "chaindem/version.hpp"
#include "hdf5_tree.hpp"

namespace py = pybind11;

namespace chaindem::python {
namespace {

// Ctrl-C, SIGTERM and SIGHUP while chaindem computes. Python's own handlers cannot run while a
// run or a command holds its thread, so while any is running (from any thread), chaindem's
// handler (install_stop_handlers) takes the three signals (stop_signals): every run and command
// stops between steps, and Python gets KeyboardInterrupt (SIGINT) or RunError (SIGTERM,
// SIGHUP). When the last one ends, Python's handlers come back, and a SIGTERM or SIGHUP received
// meanwhile is raised again, so that the process ends as it would have (its files left clean).
class StopScope {
 public:
  StopScope() {
    std::lock_guard guard(lock());
    if (active()++ > 0) return;
    const auto signals = stop_signals();
    for (std::size_t k = 0; k < signals.size(); ++k) sigaction(signals[k], nullptr, &saved(k));
    install_stop_handlers();  // clears the flag
    hold_stop_handlers(true);
  }
  ~StopScope() {
    std::lock_guard guard(lock());
    if (--active() > 0) return;
    hold_stop_handlers(false);
    const int requested = *stop_flag();
    const auto signals = stop_signals();
    for (std::size_t k = 0; k < signals.size(); ++k) sigaction(signals[k], &saved(k), nullptr);
    if (keeps_work(requested)) std::raise(requested);
  }
  StopScope(const StopScope&) = delete;
  StopScope& operator=(const StopScope&) = delete;

 private:
  static std::mutex& lock() {
    static std::mutex m;
    return m;
  }
  static int& active() {
    static int n = 0;
    return n;
  }
  static struct sigaction& saved(std::size_t k) {
    static struct sigaction handlers[3];
    return handlers[k];
  }
};

// A stream that writes to two: a command's stderr, captured for its messages and shown live.
class Tee : public std::streambuf {
 public:
  Tee(std::streambuf* a, std::streambuf* b) : a_(a), b_(b) {}

 protected:
  int overflow(int c) override {
    if (c == traits_type::eof()) return traits_type::not_eof(c);
    const auto ch = traits_type::to_char_type(c);
    return a_->sputc(ch) == traits_type::eof() || b_->sputc(ch) == traits_type::eof()
               ? traits_type::eof()
               : c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    a_->sputn(s, n);
    return b_->sputn(s, n);
  }
  int sync() override { return a_->pubsync() | b_->pubsync(); }

 private:
  std::streambuf *a_, *b_;
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

// run(text, origin, is_path, overrides, unset, output, force, progress, note) -> the run's group
// read whole (hdf5_tree.hpp), from memory or from the file `output` it wrote. `note` receives the
// case's notes before the run starts.
py::tuple run_case(const std::string& text, const std::string& origin, bool is_path,
                   const std::vector<std::string>& overrides, const std::vector<std::string>& unset,
                   const std::optional<std::string>& output, bool force, bool progress,
                   const py::function& note) {
  PreparedCase p = prepare(text, origin, is_path, overrides, unset);
  for (const std::string& n : p.run.notes) note(n);
  if (output) {
    std::vector<std::string> inputs = p.run.input_files;
    if (is_path) inputs.push_back(text);
    check_run_output(*output, inputs, existing_output(force), writes_xdmf(p.run));
  }
  const RunControl control{progress ? &std::cerr : nullptr, stop_flag(), nullptr, true};
  hdf5::Handle file;
  {
    p.run = step_for_accuracy(p.cfg, std::move(p.run), control.progress);
    StopScope stop;
    py::gil_scoped_release released;
    if (output) {
      run_to_file(p.cfg, std::move(p.run), *output, existing_output(force), control);
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
  return read_group(file.get(), output ? "/" : "run");
}

py::dict law_record(const LawEntry& law) {
  py::list parameters;
  for (const ParamSpec& s : law.params) {
    py::dict p;
    p["key"] = std::string(s.key);
    p["unit"] = std::string(s.unit);
    p["description"] = std::string(s.description);
    p["min"] = s.range.min;
    p["max"] = s.range.max;
    p["min_inclusive"] = s.range.min_inclusive;
    p["max_inclusive"] = s.range.max_inclusive;
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

// command(name, args, echo) -> (exit status, stdout, stderr): a command of the command line's
// table, run in this process with its streams captured (stderr also shown when `echo`:
// progress); the GIL is released and Ctrl-C honoured as by run.
py::tuple run_command(const std::string& name, const std::vector<std::string>& args, bool echo) {
  const Command* command = find_command(name);
  if (!command) throw std::invalid_argument("no command '" + name + "'");
  std::ostringstream out, captured;
  Tee tee(captured.rdbuf(), std::cerr.rdbuf());
  std::ostream shown(&tee);
  int status = 0;
  {
    StopScope stop;
    py::gil_scoped_release released;
    status = command->run(args, out, echo ? shown : captured);
    shown.flush();
  }
  return py::make_tuple(status, out.str(), captured.str());
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
      PyErr_SetString(run_error, e.what());  // SIGTERM, SIGHUP: raised again once all stopped
    } catch (const CaseError& e) {           // what the command line refuses with exit status 2
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
        py::arg("overrides"), py::arg("unset"), py::arg("output"), py::arg("force"),
        py::arg("progress"), py::arg("note"));
  m.def("laws", [] {
    py::list laws;
    for (const LawEntry& law : all_laws()) laws.append(law_record(law));
    return laws;
  });
  m.def("command", &run_command, py::arg("name"), py::arg("args"), py::arg("echo") = false);
  m.def("read", &read_file, py::arg("path"), py::arg("group") = "/");
  // A key and value given in Python, checked as the command line checks --set before they
  // become a line of a case or sweep file (InputError naming the key).
  m.def(
      "check_setting",
      [](const std::string& option, const std::string& key, std::optional<std::string> value) {
        check_setting(option, key, value ? std::optional<std::string_view>(*value) : std::nullopt);
      },
      py::arg("option"), py::arg("key"), py::arg("value") = std::nullopt);
}
