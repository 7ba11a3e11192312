"""The Python module: results equal to the command line's, bit for bit; threads; the GIL; Ctrl-C;
errors with the command line's messages; the law registry; chaindem.post.

Run by ctest (pytest, Debian's /usr/bin/python3), with the built package on PYTHONPATH and the
program in CHAINDEM:  CHAINDEM=build/chaindem PYTHONPATH=build/python python3 -m pytest tests/python
"""
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
import warnings

import h5py
import numpy as np
import pytest

import chaindem
from chaindem._tree import Group

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHAINDEM = os.environ.get("CHAINDEM", os.path.join(ROOT, "build", "chaindem"))
CASES = os.path.join(ROOT, "cases")
# Attributes that measure the machine, not the physics (as scripts/same_results.py).
MACHINE = {"wall_time", "ns_per_bead_step"}


def command_line_run(case, tmp_path, *sets, unset=()):
    out = str(tmp_path / "cli.h5")
    args = [CHAINDEM, "run", case, "-o", out, "--quiet"]
    for s in sets:
        args += ["--set", s]
    for key in unset:
        args += ["--unset", key]
    r = subprocess.run(args, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return out


def same_value(a, b):
    """Bitwise for numbers (NaN equal to itself), by text for strings."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind in "OSU" or b.dtype.kind in "OSU":
        text = lambda x: [v.decode() if isinstance(v, bytes) else str(v) for v in x.ravel().tolist()]
        return a.shape == b.shape and text(a) == text(b)
    if a.ndim == 0 or b.ndim == 0:  # attributes come to Python as float or int
        return a.shape == b.shape and (a == b or (np.isnan(a) and np.isnan(b)))
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def assert_same_as_file(group, path):
    """Every dataset and group attribute of the run's file (but /h5md, which the in-memory run
    does not have) is in `group`, with the same value. (Datasets are numpy arrays in memory,
    without their attributes: the units, which docs/output-format.md lists.)"""
    checked = []
    with h5py.File(path, "r") as f:
        def visit(name, obj):
            if name.startswith("h5md"):
                return
            for key, value in obj.attrs.items() if isinstance(obj, h5py.Group) else []:
                if key not in MACHINE:
                    mine = (group if name == "" else group[name]).attrs[key]
                    assert same_value(value, mine), f"{name}@{key}: {value!r} != {mine!r}"
            if isinstance(obj, h5py.Dataset):
                assert same_value(obj[()], group[name]), name
                checked.append(name)
        visit("", f)
        f.visititems(visit)
    assert len(checked) > 20


@pytest.mark.parametrize("case, sets", [
    ("default.ini", []),
    ("newton_cradle.ini", []),                       # general engine: walls, neighbor search
    ("dimer_chain.ini", ["contact.law=hunt_crossley", "contact.restitution=0.8"]),
    ("interface_chain.ini", ["contact.steel.ptfe.restitution=0.3"]),  # a model per pair
])
def test_run_equals_the_command_line_file(case, sets, tmp_path):
    path = command_line_run(os.path.join(CASES, case), tmp_path, *sets)
    overrides = dict(s.split("=", 1) for s in sets)
    tree = chaindem._core.run(os.path.join(CASES, case), os.path.join(CASES, case), True,
                              [f"{k}={v}" for k, v in overrides.items()], [], None, False,
                              False, lambda note: None)
    assert_same_as_file(Group(*tree), path)
    run = chaindem.run(os.path.join(CASES, case), overrides=overrides)
    with h5py.File(path, "r") as f:
        assert np.array_equal(run.velocity, f["particles/chain/velocity/value"][()])
        assert np.array_equal(run.time, f["particles/chain/velocity/time"][()])
        assert np.array_equal(run.contacts["normal_force"], f["contacts/normal_force"][()])
        assert run.summary["last_bead_final_velocity"] == \
            f["summary"].attrs["last_bead_final_velocity"]


def test_a_pairs_keys_go_in_its_section(tmp_path):
    """contact={"steel.ptfe.restitution": ...} sets the key of [contact.steel.ptfe]."""
    case = os.path.join(CASES, "interface_chain.ini")
    by_section = chaindem.run(case, contact={"steel.ptfe.restitution": 0.3})
    by_key = chaindem.run(case, overrides={"contact.steel.ptfe.restitution": 0.3})
    plain = chaindem.run(case)
    assert np.array_equal(by_section.velocity, by_key.velocity)
    assert not np.array_equal(by_section.velocity, plain.velocity)


def test_a_run_beyond_its_law_warns_and_reads_as_its_file(tmp_path):
    from chaindem.post import load_run
    # A 20 m/s striker on hertz: delta/R* near 0.046, beyond Hertz's 0.02 (docs/engine.md,
    # "Validity of the laws").
    case = os.path.join(CASES, "default.ini")
    sets = {"contact.law": "hertz", "striker.velocity": 20}
    with pytest.warns(chaindem.LawValidityWarning) as caught:
        run = chaindem.run(case, overrides=sets, unset=["contact.restitution"])
    written = load_run(command_line_run(case, tmp_path, "contact.law=hertz",
                                        "striker.velocity=20", unset=["contact.restitution"]))
    messages = [str(w.message) for w in caught if w.category is chaindem.LawValidityWarning]
    assert any("the steel-steel contacts of law 'hertz'" in m and "strain delta/R*" in m
               for m in messages), messages
    assert list(run.validity) == list(written.validity)
    for name in run.validity:
        assert same_value(run.validity[name], written.validity[name]), name
    k = [str(c) for c in run.validity["contacts"]].index("steel-steel")
    assert run.validity["largest_strain"][k] > 0.02
    assert run.validity["left"][k] == 1
    assert run.summary["left_validity"] >= 1
    # Within every range: no warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error", chaindem.LawValidityWarning)
        assert chaindem.run(case).summary["left_validity"] == 0


def test_a_run_of_several_models_reads_as_its_file(tmp_path):
    from chaindem.post import load_run
    case = os.path.join(CASES, "interface_chain.ini")
    run, written = chaindem.run(case), load_run(command_line_run(case, tmp_path))
    assert [(s.material, s.first_bead, s.beads) for s in run.sections] == \
        [("steel", 0, 20), ("ptfe", 20, 20)]
    assert run.sections == written.sections
    assert np.array_equal(run.section_energy, written.section_energy)
    assert np.array_equal(run.contacts["model"], written.contacts["model"])
    assert [m["section"] for m in run.models] == [m["section"] for m in written.models]
    assert [m["restitution"] for m in run.models] == [m["restitution"] for m in written.models]
    assert [str(x) for x in run.model_summary["section"]] == \
        [m["section"] for m in written.models]


def test_output_is_the_command_line_file(tmp_path):
    path = command_line_run(os.path.join(CASES, "default.ini"), tmp_path)
    mine = tmp_path / "python.h5"
    run = chaindem.run(os.path.join(CASES, "default.ini"), output_file=mine)
    assert run.path == str(mine)
    assert os.path.exists(tmp_path / "python.xdmf")
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    from same_results import contents
    assert contents(path) == contents(str(mine))
    assert np.array_equal(chaindem.load(mine).velocity, run.velocity)


def test_runs_hold_the_quantities_they_wrote():
    case = os.path.join(CASES, "default.ini")
    full = chaindem.run(case)
    some = chaindem.run(case, output={"quantities": "velocity"})
    assert some.force is None and np.array_equal(some.velocity, full.velocity)
    none = chaindem.run(case, output={"quantities": "none"})  # the summary alone
    assert len(none.time) == 0 and none.position is None
    assert none.summary["energy_balance_error"] == full.summary["energy_balance_error"]
    with pytest.raises(ValueError, match="written without velocity"):
        none.vx


def test_case_as_text_mapping_and_overrides():
    path = os.path.join(CASES, "default.ini")
    with open(path) as f:
        text = f.read()
    reference = chaindem.run(path, chain={"count": 8}, overrides={"simulation.duration": 2e-4})
    from_text = chaindem.run(text, overrides={"chain.count": 8, "simulation.duration": 2e-4})
    assert np.array_equal(reference.velocity, from_text.velocity)
    assert reference.velocity.shape[1] == 9  # 8 beads and the striker
    case = {"simulation.duration": 1e-4, "striker.velocity": 1.0, "contact.law": "hertz",
            "chain": {"count": 5, "radii": 0.005, "materials": "steel"},
            "material.steel": {"youngs_modulus": 2e11, "poisson_ratio": 0.3, "density": 7800}}
    run = chaindem.run(case)
    assert run.velocity.shape[1] == 6 and run.parameters["contact.law"] == "hertz"
    # Without damping, the momentum is conserved exactly: the striker's goes to the beads.
    momentum = (run.velocity[:, :, 0] * run.mass).sum(axis=1)
    assert np.allclose(momentum, momentum[0], rtol=1e-12, atol=0)


def test_threads_are_honoured_and_change_nothing():
    case = os.path.join(CASES, "newton_cradle.ini")
    one = chaindem.run(case, threads=1)
    two = chaindem.run(case, threads=2)
    assert one.parameters["simulation.threads"] == "1"
    assert two.parameters["simulation.threads"] == "2"
    assert np.array_equal(one.position, two.position)
    assert np.array_equal(one.force, two.force)


def test_the_gil_is_released_while_running():
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    time.sleep(0.05)
    start = time.monotonic()
    run = chaindem.run(os.path.join(CASES, "default.ini"), chain={"count": 20000},
                       simulation={"duration": 5e-3}, output={"interval": 1e-3}, threads=1)
    end = time.monotonic()
    done.set()
    counter.join()
    during = [t for t in ticks if start < t < end]
    assert end - start > 0.3, "the run is too short to tell"
    # The other thread ran about once per millisecond throughout the run.
    assert len(during) > 0.3 * (end - start) / 0.001, (len(during), end - start)
    assert run.velocity.shape[1] == 20001


def test_ctrl_c_stops_the_run_and_writes_nothing(tmp_path):
    out = tmp_path / "long.h5"
    script = textwrap.dedent(f"""
        import sys, time, chaindem
        print("started", flush=True)
        try:
            chaindem.run({os.path.join(CASES, 'default.ini')!r}, output_file={str(out)!r},
                         chain={{"count": 20000}}, simulation={{"duration": 1.0}},
                         output={{"interval": 1e-3}})
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(7)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                            env=dict(os.environ))
    assert proc.stdout.readline().strip() == "started"
    time.sleep(1.5)
    start = time.monotonic()
    proc.send_signal(signal.SIGINT)
    stdout, _ = proc.communicate(timeout=60)
    assert proc.returncode == 7, stdout
    assert "interrupted" in stdout
    assert time.monotonic() - start < 5
    assert not [p for p in os.listdir(tmp_path) if p.startswith("long")]


@pytest.mark.parametrize("kwargs, error, text", [
    (dict(chain={"count": -3}), chaindem.InputError, ["chain.count", "allowed [1, 5e+07]"]),
    (dict(chain={"cont": 3}), chaindem.InputError, ["unknown key 'chain.cont'",
                                                    "did you mean 'chain.count'"]),
    (dict(contact={"law": "hertzz"}), chaindem.InputError, ["did you mean 'hertz'"]),
    (dict(threads=-1), chaindem.InputError, ["simulation.threads"]),
    (dict(chain=3), TypeError, ["chain={'key': value}"]),
    # A time step of a third of the contact time diverges: the command line's exit status 1.
    (dict(simulation={"time_step": 1e-5}), chaindem.RunError, ["diverged"]),
])
def test_errors_carry_the_command_lines_messages(kwargs, error, text, tmp_path):
    with pytest.raises(error) as raised:
        chaindem.run(os.path.join(CASES, "default.ini"), output_file=tmp_path / "x.h5", **kwargs)
    for t in text:
        assert t in str(raised.value)
    assert os.listdir(tmp_path) == []  # nothing written


def test_missing_case_file_and_bad_output():
    with pytest.raises(chaindem.InputError, match="nonexistent.ini"):
        chaindem.run("nonexistent.ini")
    with pytest.raises(chaindem.InputError, match="is the input"):
        chaindem.run(os.path.join(CASES, "default.ini"), output_file=os.path.join(CASES, "default.ini"))
    with pytest.raises(TypeError):
        chaindem.run(42)


def test_notes_become_warnings():
    with pytest.warns(chaindem.CaseNote, match="restitution"):
        chaindem.run(os.path.join(CASES, "default.ini"), contact={"law": "hertz"},
                     simulation={"duration": 1e-4})


def test_every_command_of_the_command_line_runs_in_process():
    # The module runs the commands the program lists, with the program's output and status.
    listed = [line.split()[1] for line in
              subprocess.run([CHAINDEM, "--help"], capture_output=True, text=True,
                             check=True).stdout.splitlines()
              if line.startswith("  chaindem ") and line.split()[1][0].isalpha()
              and line.split()[1] != "COMMAND"]
    assert {"run", "sweep", "compare", "collide", "fit", "models", "case-format"} <= set(listed)
    for name in listed:
        status, out, err = chaindem._core.command(name, ["--help"])
        program = subprocess.run([CHAINDEM, name, "--help"], capture_output=True, text=True)
        assert (status, out, err) == (program.returncode, program.stdout, program.stderr), name
    status, out, err = chaindem._core.command("models", ["--list"])
    assert status == 0 and [line.split("\t")[0] for line in out.splitlines()] == \
        [law.id for law in chaindem.models()]
    status, out, err = chaindem._core.command("models", ["hertzz"])
    assert status == 2 and "chaindem models: unknown law 'hertzz'; did you mean 'hertz'" in err
    with pytest.raises(ValueError, match="no command 'frobnicate'"):
        chaindem._core.command("frobnicate", [])


def test_models_are_the_registry():
    listed = subprocess.run([CHAINDEM, "models", "--list"], capture_output=True, text=True,
                            check=True).stdout.splitlines()
    laws = chaindem.models()
    assert [law.id for law in laws] == [line.split("\t")[0] for line in listed]
    assert [law.family for law in laws] == [line.split("\t")[1] for line in listed]
    hertz = next(law for law in laws if law.id == "hertz")
    assert [p.key for p in hertz.parameters] == ["stiffness"] and hertz.family == "elastic"
    assert hertz.parameters[0].default is None and "E*" in hertz.parameters[0].default_text
    hc = next(law for law in laws if law.id == "hunt_crossley")
    restitution = next(p for p in hc.parameters if p.key == "restitution")
    assert (restitution.min, restitution.max, restitution.unit) == (0.0, 1.0, "-")
    assert all(law.citation and law.formula for law in laws)
    assert {law.family for law in chaindem.models("hysteresis")} == {"hysteresis"}
    with pytest.raises(chaindem.InputError, match="the families are"):
        chaindem.models("hysteresys")


def test_post_is_importable_and_draws_an_in_memory_run(tmp_path):
    import matplotlib
    matplotlib.use("Agg")
    from chaindem.post import plots
    run = chaindem.run(os.path.join(CASES, "default.ini"))
    assert run.path == "" and run.name == "default"
    figure = plots.spacetime(run, "velocity")
    figure.savefig(tmp_path / "spacetime.png")
    assert os.path.getsize(tmp_path / "spacetime.png") > 10000


COLLISION = dict(radius=0.005, youngs_modulus=2e11, poisson_ratio=0.3, density=7800)


def test_collide_equals_the_command_line(tmp_path):
    loop = str(tmp_path / "loop.h5")
    r = subprocess.run([CHAINDEM, "collide", "--law", "hunt_crossley", "--restitution", "0.8",
                        "--velocity", "1", "--radius", "0.005", "--youngs-modulus", "2e11",
                        "--poisson-ratio", "0.3", "--density", "7800", "--json", "-o", loop],
                       capture_output=True, text=True, check=True)
    import json
    expected = json.loads(r.stdout)
    mine = chaindem.collide("hunt_crossley", velocity=1, params={"restitution": 0.8}, **COLLISION)
    assert {k: v for k, v in mine.items() if k != "loop"} == expected
    with h5py.File(loop, "r") as f:
        loop = mine["loop"]
        for mine_array, name in ((loop.time, "time"), (loop.overlap, "overlap"),
                                 (loop.rate, "approach_rate"), (loop.force, "force")):
            assert np.array_equal(mine_array, f[name][()]), name
        assert mine["restitution"] == f.attrs["restitution"]
    # The work of the force around the loop is the energy the impact dissipated.
    work = np.trapz(mine["loop"].force, mine["loop"].overlap)
    assert work == pytest.approx(mine["dissipated_energy"], rel=1e-4)  # trapezoids, 400 points
    import matplotlib
    matplotlib.use("Agg")
    from chaindem.post import plots
    plots.force_overlap(mine["loop"]).savefig(tmp_path / "loop.png")  # a Loop, as load_loop's
    wall = chaindem.collide("hertz", velocity=1, wall=True, loop=False, **COLLISION)
    assert wall["restitution"] == pytest.approx(1.0, abs=1e-9) and "loop" not in wall


def test_collide_errors():
    with pytest.raises(chaindem.InputError, match=r"--restitution: 1.8 is out of range"):
        chaindem.collide("hunt_crossley", velocity=1, restitution=1.8, **COLLISION)
    with pytest.raises(chaindem.InputError, match="hertzz"):
        chaindem.collide("hertzz", velocity=1, **COLLISION)


SWEEP_AXES = {"contact.law": ["hunt_crossley", "flores"], "contact.restitution": [0.5, 0.9],
              "striker.velocity": "1:2:1"}


def test_sweep_equals_the_command_line(tmp_path):
    sweep_file = tmp_path / "s.ini"
    sweep_file.write_text(f"[sweep]\nbase = {os.path.join(CASES, 'default.ini')}\n"
                          "[set]\nchain.count = 6\nsimulation.duration = 5e-4\n[axes]\n" +
                          "".join(f"{k} = {chaindem.format_value(v)}\n"
                                  for k, v in SWEEP_AXES.items()))
    out = str(tmp_path / "cli.h5")
    subprocess.run([CHAINDEM, "sweep", str(sweep_file), "-o", out, "--quiet"], check=True)
    from_file = chaindem.sweep(sweep_file, threads=2)
    from_dict = chaindem.sweep(base=os.path.join(CASES, "default.ini"), axes=SWEEP_AXES,
                               fixed={"chain.count": 6, "simulation.duration": 5e-4})
    assert len(from_file) == 8
    assert list(from_file.dtype.names[:4]) == ["case", "contact.law", "contact.restitution",
                                               "striker.velocity"]
    with h5py.File(out, "r") as f:
        for name in from_file.dtype.names:
            if name in MACHINE:
                continue
            expected = f["summary"][name]
            expected = expected.asstr()[()] if expected.dtype.kind in "OS" else expected[()]
            for table in (from_file, from_dict):
                assert same_value(expected, table[name]), name
    kept = tmp_path / "kept.h5"
    chaindem.sweep(sweep_file, output_file=kept)
    assert chaindem.load(kept, case=3).velocity.shape[1] == 7


def test_sweep_tables_and_errors(tmp_path):
    try:
        import pandas  # noqa: F401
        frame = chaindem.sweep(base=os.path.join(CASES, "default.ini"),
                               axes={"contact.restitution": [0.5, 0.9]},
                               fixed={"chain.count": 4}, table_kind="pandas")
        assert list(frame["contact.restitution"]) == [0.5, 0.9]
    except ImportError:
        with pytest.raises(chaindem.InputError, match="needs pandas"):
            chaindem.sweep(base=os.path.join(CASES, "default.ini"),
                           axes={"contact.restitution": [0.5]}, table_kind="pandas")
    with pytest.raises(chaindem.InputError, match=r"case 1 \(contact.restitution=1.9\)"):
        chaindem.sweep(base=os.path.join(CASES, "default.ini"),
                       axes={"contact.restitution": [0.5, 1.9]})
    with pytest.raises(chaindem.InputError, match="not both"):
        chaindem.sweep("s.ini", base="cases/default.ini", axes={"chain.count": [2]})
    with pytest.raises(chaindem.InputError, match="checkpoint-interval"):
        chaindem.sweep(base=os.path.join(CASES, "default.ini"),
                       axes={"contact.restitution": [0.5]}, checkpoint_interval=0)


def test_compare_equals_the_command_line(tmp_path):
    out = str(tmp_path / "cli.h5")
    subprocess.run([CHAINDEM, "compare", os.path.join(CASES, "default.ini"), "--laws",
                    "hertz,hunt_crossley", "--reference", "edem_hertz_mindlin", "-o", out],
                   check=True, capture_output=True)
    with pytest.warns(chaindem.CaseNote, match="is not a parameter of law 'hertz'"):
        table = chaindem.compare(os.path.join(CASES, "default.ini"), ["hertz", "hunt_crossley"],
                                 reference="edem_hertz_mindlin", threads=2)
    assert list(table["law"]) == ["edem_hertz_mindlin", "hertz", "hunt_crossley"]
    with h5py.File(out, "r") as f:
        c = f["comparison"]
        for metric in ("peak_velocity", "peak_force", "arrival_time", "final_velocity"):
            assert same_value(table[metric][1:], c[metric][()])
            assert same_value(table[metric][0], c["reference_" + metric][()])
            assert same_value(table[metric + "_error_percent"][1:],
                              c[metric + "_error_percent"][()])
    assert np.all(table["peak_force_error_percent"][0] == 0)
    with pytest.raises(chaindem.InputError, match="nolaw"):
        chaindem.compare(os.path.join(CASES, "default.ini"), ["nolaw"], reference="hertz")


def test_ctrl_c_stops_a_sweep(tmp_path):
    script = textwrap.dedent(f"""
        import sys, chaindem
        print("started", flush=True)
        try:
            chaindem.sweep(base={os.path.join(CASES, 'default.ini')!r},
                           axes={{"contact.restitution": "0.01:1:0.01"}},
                           fixed={{"chain.count": 2000, "simulation.duration": 5e-3}},
                           output_file={str(tmp_path / 'long.h5')!r}, threads=1)
        except KeyboardInterrupt as stop:
            print("interrupted:", stop, flush=True)
            # The process goes on: the next sweep runs to its end.
            table = chaindem.sweep(base={os.path.join(CASES, 'default.ini')!r},
                                   axes={{"contact.restitution": [0.5, 0.6]}},
                                   fixed={{"chain.count": 4}})
            print("again:", list(table["status"]), flush=True)
            sys.exit(7)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "started"
    time.sleep(2)
    proc.send_signal(signal.SIGINT)
    stdout, _ = proc.communicate(timeout=60)
    assert proc.returncode == 7, stdout
    assert "run the same command to resume" in stdout
    assert "again: ['ok', 'ok']" in stdout
    assert os.path.exists(tmp_path / "long.h5.partial")  # kept for a resume, as on the command line


def test_runs_from_several_threads_at_once():
    from concurrent.futures import ThreadPoolExecutor
    cases = [dict(contact={"law": law}, chain={"count": 300}) for law in
             ("hunt_crossley", "flores", "edem_hertz_mindlin", "tsuji")]
    alone = [chaindem.run(os.path.join(CASES, "default.ini"), **c) for c in cases]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda c: chaindem.run(os.path.join(CASES, "default.ini"), **c),
                                 cases))
    for a, b in zip(alone, together):
        assert np.array_equal(a.velocity, b.velocity)
        assert np.array_equal(a.contacts["normal_force"], b.contacts["normal_force"])


def run_in_subprocess(script, timeout=120):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(script)], capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT)


def test_ctrl_c_reaches_runs_in_worker_threads_and_is_cleared_after():
    r = run_in_subprocess(f"""
        import os, signal, threading, chaindem
        from concurrent.futures import ThreadPoolExecutor
        long = dict(chain={{"count": 20000}}, simulation={{"duration": 1.0}}, threads=1,
                    output={{"interval": 1e-3}})
        with ThreadPoolExecutor(2) as pool:
            futures = [pool.submit(chaindem.run, {os.path.join(CASES, 'default.ini')!r}, **long)
                       for _ in range(2)]
            threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
            stopped = 0
            for f in futures:
                try:
                    f.result(timeout=60)
                except KeyboardInterrupt:
                    stopped += 1
        print("stopped", stopped)
        # The stop is not left behind: a later run in a worker thread runs.
        with ThreadPoolExecutor(1) as pool:
            print("then", pool.submit(chaindem.run, {os.path.join(CASES, 'default.ini')!r})
                  .result().velocity.shape)
        # And Python's own handler is back.
        print("handler", signal.getsignal(signal.SIGINT) is signal.default_int_handler)
    """)
    assert r.returncode == 0, r.stderr
    assert "stopped 2" in r.stdout and "then (501, 21, 1)" in r.stdout
    assert "handler True" in r.stdout


def test_handlers_come_back_after_overlapping_commands():
    r = run_in_subprocess(f"""
        import os, signal, threading, time, chaindem
        def sweep(n):
            chaindem.sweep(base={os.path.join(CASES, 'default.ini')!r},
                           axes={{"striker.velocity": [0.5, 1]}},
                           fixed={{"chain.count": n, "simulation.duration": 2e-3}}, threads=1)
        a = threading.Thread(target=sweep, args=(2000,))
        b = threading.Thread(target=sweep, args=(4000,))
        a.start(); time.sleep(0.05); b.start(); a.join(); b.join()
        signal.signal(signal.SIGTERM, lambda *_: print("python's SIGTERM handler ran"))
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.2)
    """)
    assert r.returncode == 0, r.stderr
    assert "python's SIGTERM handler ran" in r.stdout


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_during_a_run_ends_the_process_cleanly(tmp_path, stop):
    # SIGHUP: the terminal or ssh connection of the Python process closed.
    out = tmp_path / "x.h5"
    proc = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import chaindem
        print("started", flush=True)
        chaindem.run({os.path.join(CASES, 'default.ini')!r}, output_file={str(out)!r},
                     chain={{"count": 20000}}, simulation={{"duration": 1.0}},
                     output={{"interval": 1e-3}})
    """)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "started"
    time.sleep(1.0)
    proc.send_signal(stop)
    proc.communicate(timeout=60)
    assert proc.returncode == -stop  # ended by the signal, as without chaindem
    assert os.listdir(tmp_path) == []  # but its files were removed first


def test_one_output_from_two_threads_is_refused(tmp_path):
    from concurrent.futures import ThreadPoolExecutor
    out = tmp_path / "same.h5"
    job = lambda v: chaindem.run(os.path.join(CASES, "default.ini"), striker={"velocity": v},
                                 chain={"count": 3000}, simulation={"duration": 2e-3},
                                 output_file=out)
    with ThreadPoolExecutor(2) as pool:
        futures = [pool.submit(job, v) for v in (1.0, 2.0)]
        outcomes = []
        for f in futures:
            try:
                outcomes.append(f.result().path)
            except chaindem.InputError as e:
                outcomes.append(str(e))
    assert sum(o == str(out) for o in outcomes) == 1, outcomes
    assert any("another call of this process writes it" in o for o in outcomes), outcomes


@pytest.mark.parametrize("call, error, text", [
    (lambda: chaindem.run(CASE, unset="contact.restitution"), TypeError, "a list of names"),
    (lambda: chaindem.compare(CASE, "hertz", reference="hertz"), TypeError, "a list of names"),
    (lambda: chaindem.run(CASE, threads=True), TypeError, "threads: an int"),
    (lambda: chaindem.run(CASE, threads=2.5), TypeError, "threads: an int"),
    (lambda: chaindem.run(CASE, progress="no"), TypeError, "progress: True or False"),
    (lambda: chaindem.run(CASE, chain={"materials": None}), TypeError, "None is not a case value"),
    (lambda: chaindem.run(CASE, overrides=["chain.count=3"]), TypeError, "overrides: a mapping"),
    (lambda: chaindem.run(CASE, chain={"materials": "steel\n[chain]\ncount = 3"}),
     chaindem.InputError, "one line of text"),
    (lambda: chaindem.run(CASE, chain={"materials": "steel # x"}), chaindem.InputError,
     "starts a comment"),
    (lambda: chaindem.run(CASE + "\0junk"), ValueError, "null character"),
    (lambda: chaindem.sweep(base=CASE, axes={"chain.radii": [[0.005, 0.004], [0.003]]}),
     TypeError, "a list inside a list"),
    (lambda: chaindem.sweep(os.path.join(CASES, "sweeps", "restitution.ini"),
                            fixed={"chain.count": 3}), chaindem.InputError, "not both"),
    (lambda: chaindem.collide("hertz", velocity=1, veloc=2.0), TypeError, "no option 'veloc'"),
    (lambda: chaindem.collide("hertz", velocity=1, wal=True), TypeError, "did you mean 'wall'"),
    (lambda: chaindem.collide(None, velocity=1), TypeError, "law: a law's identifier"),
    (lambda: chaindem.load(CASE, case="3"), TypeError, "case: an int"),
])
def test_arguments_of_the_wrong_kind(call, error, text):
    with pytest.raises(error, match=__import__("re").escape(text)):
        call()


CASE = os.path.join(CASES, "default.ini")
IMPACTS = {"velocity": [0.1, 0.3, 1.0], "restitution": [0.93, 0.9, 0.86]}
STEEL_BALL = dict(radius=0.005, youngs_modulus=2e11, poisson_ratio=0.3, density=7800, wall=True)


# A key becomes part of a line of a case or sweep file, or of --set: what would make it another
# key, a section or a comment there is refused naming it, wherever a key is given.
@pytest.mark.parametrize("call, text", [
    (lambda: chaindem.run(CASE, overrides={"simulation.duration=1e-5 #": 2e-5}),
     "overrides 'simulation.duration=1e-5 #': the key holds '='"),
    (lambda: chaindem.run(CASE, overrides={"simulation.duration": "1e-5\x0b"}),
     "overrides 'simulation.duration': the value '1e-5\\x0B' is not text"),
    (lambda: chaindem.run(CASE, chain={"count\n[striker]\nvelocity": 2}),
     "chain 'chain.count\\x0A[striker]\\x0Avelocity': the key holds a line break"),
    (lambda: chaindem.run(CASE, unset=["chain.count\n"]), "--unset 'chain.count\\x0A'"),
    (lambda: chaindem.run({"simulation.duration": 1e-5, "chain": {"count]": 3}}),
     "case 'chain.count]': the key holds ']'"),
    (lambda: chaindem.sweep(base=CASE, axes={"striker.velocity\n[set]\nchain.count": [1, 2]}),
     "axes 'striker.velocity\\x0A[set]\\x0Achain.count'"),
    (lambda: chaindem.sweep(base=CASE, axes={"striker.velocity": [1, 2]}, fixed={"a b": 1}),
     "fixed 'a b': the key holds a blank"),
    (lambda: chaindem.sweep(os.path.join(CASES, "sweeps", "restitution.ini"),
                            overrides={"chain;count": 3}), "overrides 'chain;count'"),
    (lambda: chaindem.compare(CASE, ["hertz"], reference="hertz",
                              overrides={"chain.count#": 3}), "overrides 'chain.count#'"),
    (lambda: chaindem.fit(IMPACTS, ["tsuji"], fixed={"restitution=0.5 #": 0.4}, **STEEL_BALL),
     "fixed 'restitution=0.5 #'"),
    (lambda: chaindem.fit(IMPACTS, ["tsuji"], start={"restitution[0]": 0.4}, **STEEL_BALL),
     "start 'restitution[0]'"),
    (lambda: chaindem.fit(IMPACTS, ["tsuji"], bounds={"restitution\n": (0.1, 0.9)},
                          **STEEL_BALL), "bounds 'restitution\\x0A'"),
    (lambda: chaindem.collide("tsuji", velocity=1, params={"restitution 2": 0.5}, **STEEL_BALL),
     "params 'restitution 2': the key holds a blank"),
])
def test_keys_are_checked_as_the_command_line_checks_them(call, text):
    with pytest.raises(chaindem.InputError, match=__import__("re").escape(text)):
        call()


def test_fit_data_column_names_are_cells_of_one_line():
    for name in ("restitution,sigma", "restitution\nvelocity"):
        with pytest.raises(chaindem.InputError, match="a name without commas, line breaks"):
            chaindem.fit({"velocity": [0.1, 0.3, 1.0], name: [0.93, 0.9, 0.86]}, ["tsuji"],
                         **STEEL_BALL)


def test_text_and_mapping_bases_read_paths_from_the_current_folder(monkeypatch):
    monkeypatch.chdir(CASES)
    with open("measured_state.ini") as f:
        text = f.read()
    single = chaindem.run(text)  # its initial state from measured_state.csv, found here
    table = chaindem.sweep(base=text, axes={"output.interval": [5e-6, 1e-5]})
    assert list(table["status"]) == ["ok", "ok"]
    assert table["last_bead_final_velocity"][0] == single.summary["last_bead_final_velocity"]
    with pytest.raises(chaindem.InputError) as refused:
        chaindem.compare({"simulation.duration": 1e-3}, ["hertz"], reference="hertz")
    assert "<dict>" in str(refused.value) and "chaindem-compare-" not in str(refused.value)


def test_sweep_progress_is_shown(capfd):
    chaindem.sweep(base=CASE, axes={"contact.restitution": [0.5, 0.9]}, fixed={"chain.count": 4},
                   progress=True)
    err = capfd.readouterr().err
    assert "2 cases, 0 already finished" in err


def test_notes_come_before_the_run():
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error", chaindem.CaseNote)
        start = time.monotonic()
        with pytest.raises(chaindem.CaseNote):
            chaindem.run(CASE, contact={"law": "hertz"}, chain={"count": 20000},
                         simulation={"duration": 1.0}, output={"interval": 1e-3})
        assert time.monotonic() - start < 5  # refused before computing a second of chain


def test_a_failed_sweep_case_says_why_it_has_no_run(tmp_path):
    out = tmp_path / "s.h5"
    with pytest.warns(RuntimeWarning):
        table = chaindem.sweep(base=CASE, axes={"simulation.time_step": [0, 1e-5]},
                               fixed={"chain.count": 5, "simulation.duration": 3e-4},
                               output_file=out)
    assert table["status"][1].startswith("failed")
    with pytest.raises(ValueError, match="case 1 has no run: failed"):
        chaindem.load(out, case=1)
    assert "frames" in repr(chaindem.load(out, case=0))


def test_fit_equals_the_command_line(tmp_path):
    body = dict(radius=0.005, youngs_modulus=2e11, poisson_ratio=0.3, density=7800, wall=True)
    v = np.geomspace(0.1, 3, 12)
    e = np.array([chaindem.collide("hunt_crossley", velocity=float(x), loop=False,
                                   params={"restitution": 0.7}, **body)["restitution"] for x in v])
    e *= 1 + 0.02 * np.random.default_rng(4).standard_normal(len(v))
    data = tmp_path / "e.csv"
    data.write_text("velocity,restitution\n" +
                    "".join(f"{a!r},{b!r}\n" for a, b in zip(v.tolist(), e.tolist())))
    import json
    cli = json.loads(subprocess.run(
        [CHAINDEM, "fit", "--data", str(data), "--laws", "hunt_crossley", "--json", "--radius",
         "0.005", "--youngs-modulus", "2e11", "--poisson-ratio", "0.3", "--density", "7800",
         "--wall"], capture_output=True, text=True, check=True).stdout)
    from_columns = chaindem.fit({"velocity": v, "restitution": e}, ["hunt_crossley"],
                                output_file=tmp_path / "fit.h5", **body)
    assert from_columns["data"] == "<data>"
    mine, theirs = from_columns["laws"][0], cli["laws"][0]
    assert mine["parameters"][0]["value"] == theirs["parameters"][0]["value"]
    assert np.array_equal(mine["residuals"]["restitution"],
                          np.array(theirs["residuals"]["restitution"]))
    from chaindem.post import load_fit
    assert load_fit(str(tmp_path / "fit.h5")).laws[0].law == "hunt_crossley"
    booted = chaindem.fit(data, ["hunt_crossley"], bootstrap=100, **body)["laws"][0]
    assert booted["bootstrap"] == {"samples": 100, "refits": 100, "block": 1}
    assert booted["parameters"][0]["interval"] == "bootstrap"
    with pytest.raises(chaindem.InputError, match="unknown column 'restitutoin'"):
        chaindem.fit({"velocity": v, "restitutoin": e}, ["hunt_crossley"], **body)
    with pytest.raises(TypeError, match="did you mean 'radius'"):
        chaindem.fit({"velocity": v, "restitution": e}, ["hunt_crossley"], radiu=0.005)


def test_fit_refuses_columns_it_cannot_read():
    """Columns of data that are not one number per row are refused before anything is written,
    naming the column: a ValueError (InputError), as for any bad data."""
    body = dict(radius=0.005, youngs_modulus=2e11, poisson_ratio=0.3, density=7800, wall=True)
    v, e = np.array([0.5, 1.0, 2.0, 3.0]), np.array([0.9, 0.85, 0.8, 0.78])
    for data, column, why in (
            ({"velocity": np.vstack([v, v]), "restitution": np.vstack([e, e])}, "velocity",
             "one-dimensional"),
            ({"velocity": v, "restitution": e.reshape(2, 2)}, "restitution", r"shape \(2, 2\)"),
            ({"velocity": 1.0, "restitution": 0.9}, "velocity", "one-dimensional"),
            ({"velocity": ["fast", "slow"], "restitution": e[:2]}, "velocity",
             "a column of numbers"),
            ({"velocity": np.array([0.5, np.nan, 2.0, 3.0]), "restitution": e}, "velocity",
             "row 1 is nan: every impact needs its velocity"),
            ({"velocity": np.array([0.5, 1.0, np.inf, 3.0]), "restitution": e}, "velocity",
             "row 2 is inf")):
        with pytest.raises(ValueError, match=rf"data\['{column}'\]: .*{why}") as raised:
            chaindem.fit(data, ["hunt_crossley"], **body)
        assert isinstance(raised.value, chaindem.InputError)


def test_fit_a_chain_history_from_columns(tmp_path):
    # A run of the default case is the record (beads 0 and 9, every fifth frame): fitted from
    # its columns, the law that made it gives back its restitution.
    run = chaindem.run(os.path.join(CASES, "default.ini"),
                       overrides={"contact.law": "hunt_crossley", "contact.restitution": 0.75})
    time = run.time[::5]
    record = {"bead9": run.velocity[::5, run.chain_first + 9, 0], "time": time,
              "bead0": run.velocity[::5, run.chain_first, 0]}
    result = chaindem.fit(record, ["hunt_crossley"], case=os.path.join(CASES, "default.ini"),
                          sigma=1e-3, starts=2)
    assert result["kind"] == "chain" and result["beads"] == [9, 0]
    p = result["laws"][0]["parameters"][0]
    assert p["value"] == pytest.approx(0.75, abs=1e-3)
    assert set(result["laws"][0]["residuals"]) == {"bead9", "bead0"}
    with pytest.raises(chaindem.InputError, match="holds NaN: a chain's record needs a value"):
        chaindem.fit({**record, "bead9": np.where(time > 0, record["bead9"], np.nan)},
                     ["hunt_crossley"], case=os.path.join(CASES, "default.ini"))
    in_microseconds = {"bead0": record["bead0"], "time [us]": time * 1e6}  # time not first
    assert chaindem.fit(in_microseconds, ["hunt_crossley"], case=os.path.join(CASES, "default.ini"),
                        sigma=1e-3, starts=2)["laws"][0]["parameters"][0]["value"] == \
        pytest.approx(0.75, abs=1e-3)
    with pytest.raises(chaindem.InputError, match="the bodies of a chain come from its case"):
        chaindem.fit(record, ["hunt_crossley"], case=os.path.join(CASES, "default.ini"),
                     radius=0.005)


def test_spectra_of_an_in_memory_run_and_of_a_sweep_file(tmp_path):
    """chaindem.spectrum reads a run in memory as chaindem.post.spectra reads its file; two beads
    pressed by 10 N against a wall ring at the lower normal mode of the linearised Hertz
    contacts, 5.82 kHz (tests/cli/test_spectra.py derives it), and
    chaindem.transmission reads a sweep's file."""
    keys = {"simulation.duration": 0.02, "simulation.time_step": 1e-7, "contact.law": "hertz",
            "chain.count": 2, "chain.end_force": 10, "chain.static_overlap": True,
            "chain.velocity": [0, 1e-4], "striker.enabled": False, "wall_end.enabled": False,
            "wall_start.enabled": True, "wall_start.material": "steel",
            "output.interval": 2e-6, "output.contacts": False}
    output = tmp_path / "ringing.h5"
    run = chaindem.run(os.path.join(CASES, "default.ini"), overrides=keys, output_file=output,
                       unset=["contact.restitution"])
    in_memory = chaindem.spectrum(run, wall="start")
    from_file = chaindem.post.spectra.spectrum(chaindem.load(output), wall="start")
    np.testing.assert_array_equal(in_memory.amplitude, from_file.amplitude)
    frequency, _ = chaindem.spectrum(run, bead=1).peak(0.0, 1e4)
    assert abs(frequency / 5820.37 - 1) < 0.01
    kept = tmp_path / "sweep.h5"
    chaindem.sweep(base=os.path.join(CASES, "default.ini"), overrides=keys,
                   unset=["contact.restitution"], axes={"material.steel.density": [7000, 7800]},
                   output_file=kept)
    response = chaindem.transmission(kept, "material.steel.density", bead=0)
    assert list(response.frequency) == [7000.0, 7800.0] and response.unit == "m/s"
