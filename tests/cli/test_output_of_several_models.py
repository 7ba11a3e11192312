#!/usr/bin/python3
"""The output file of a case of several contact models (docs/output-format.md, "A case of
several contact models"): each contact's model, the table of models, the energy of each section
of the chain and the summary per model, checked against what the case gives and against the
energies recomputed here from the file's own state with Hertz's law (Hertz 1882); a case of one
model writes none of it.

Run by ctest with Debian's /usr/bin/python3 (h5py, numpy):
    test_output_of_several_models.py CHAINDEM_BINARY SOURCE_DIR
"""
import math
import os
import subprocess
import sys
import tempfile
import unittest

import h5py
import numpy as np

CHAINDEM = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "build/chaindem"
SOURCE = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else "."
INTERFACE = os.path.join(SOURCE, "cases", "interface_chain.ini")
# interface_chain.ini with its end wall, whose contact with PTFE has a section of its own.
WALL = ("wall_end.enabled=true", "wall_end.material=steel", "contact.wall_end.ptfe.restitution=0.7")


def run(tmp, name, case, sets=()):
    out = os.path.join(tmp, name + ".h5")
    argv = [CHAINDEM, "run", case, "--quiet", "-o", out]
    for s in sets:
        argv += ["--set", s]
    r = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return out


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


class File:
    """What the tests read of a run's file."""

    def __init__(self, path):
        with h5py.File(path, "r") as f:
            chain = f["particles/chain"]
            self.striker = int(chain.attrs["striker"])
            self.first = int(chain.attrs["chain_first"])
            self.count = int(chain.attrs["chain_count"])
            names = [text(n) for n in chain["species"].attrs["species_names"]]
            self.material = [names[s] for s in chain["species"][()]]  # per particle
            self.radius = chain["radius"][()]
            self.mass = chain["mass"][()]
            self.velocity = chain["velocity/value"][()]
            self.parameters = {k: text(v) for k, v in f["parameters"].attrs.items()}
            self.walls = [text(w) for w in f["walls"].attrs.get("names", [])]
            c = f["contacts"]
            self.contacts = {name: c[name][()] for name in c if name not in ("step", "time")}
            self.observables = {name: f[f"observables/{name}/value"][()]
                                for name in f["observables"]}
            models = f.get("parameters/contact_models")
            self.models = [] if models is None else [
                {k: (text(v) if isinstance(v, (str, bytes)) else v)
                 for k, v in models[str(k)].attrs.items()} for k in range(len(models))]
            self.law = dict(f["parameters/law"].attrs.items())
            section = f.get("observables/section_energy")
            self.section_attrs = {} if section is None else dict(section.attrs.items())
            self.summary = dict(f["summary"].attrs.items())
            g = f.get("summary/models")
            self.model_summary = {} if g is None else {
                name: (g[name].asstr()[()] if g[name].dtype.kind == "O" else g[name][()])
                for name in g}
            self.model_summary_units = {} if g is None else {
                name: text(g[name].attrs.get("unit", "")) for name in g}

    def number(self, key):
        return float(self.parameters[key])

    def body_material(self, body):
        """The material of a particle, or of wall -(body + 1)."""
        if body >= 0:
            return self.material[body]
        return self.parameters[f"{self.walls[-body - 1]}.material"]

    def hertz_energy(self, first, second, overlap):
        """The elastic energy (8/15) E* sqrt(R*) delta^(5/2) of a Hertz contact (Hertz 1882):
        1/E* = (1 - nu_1^2)/E_1 + (1 - nu_2^2)/E_2, 1/R* = 1/R_1 + 1/R_2 (a wall: R* = R_1)."""
        compliance = 0.0
        for body in (first, second):
            m = self.body_material(body)
            nu = self.number(f"material.{m}.poisson_ratio")
            compliance += (1.0 - nu * nu) / self.number(f"material.{m}.youngs_modulus")
        r = self.radius[first]
        r_eff = r if second < 0 else r * self.radius[second] / (r + self.radius[second])
        return 8.0 / 15.0 / compliance * math.sqrt(r_eff) * overlap ** 2.5

    def stored_by_particle(self, frame):
        """The contacts' energy at `frame`, half of a pair's to each particle, a wall contact's
        to its particle."""
        out = np.zeros(len(self.radius))
        c = self.contacts
        rows = slice(c["offset"][frame], c["offset"][frame + 1])
        for i, j, d in zip(c["first"][rows], c["second"][rows], c["overlap"][rows]):
            u = self.hertz_energy(i, j, d) if d > 0 else 0.0
            if j < 0:
                out[i] += u
            else:
                out[i] += u / 2
                out[j] += u / 2
        return out

    def kinetic(self, frame):
        return 0.5 * self.mass * np.sum(self.velocity[frame] ** 2, axis=1)

    def expected_model(self, first, second):
        """The model the case gives a contact: that of the section naming its two materials
        (or its wall and material), else [contact]'s."""
        sections = [m["section"] for m in self.models]
        a = self.body_material(first)
        if second < 0:
            named = f"contact.{self.walls[-second - 1]}.{a}"
        else:
            b = self.body_material(second)
            named = next((s for s in (f"contact.{a}.{b}", f"contact.{b}.{a}") if s in sections),
                         "")
        return sections.index(named) if named in sections else sections.index("contact")


class SeveralModels(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.interface = File(run(cls.tmp.name, "interface", INTERFACE))
        cls.wall = File(run(cls.tmp.name, "wall", INTERFACE, WALL))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_each_contact_records_its_model(self):
        for name, f in (("interface", self.interface), ("wall", self.wall)):
            c = f.contacts
            model = c["model"]
            self.assertEqual(model.dtype, np.int32, name)
            self.assertEqual(len(model), len(c["first"]), name)
            self.assertTrue(((model >= 0) & (model < len(f.models))).all(), name)
            expected = [f.expected_model(i, j) for i, j in zip(c["first"], c["second"])]
            np.testing.assert_array_equal(model, expected, name)
            # Every model of the case is met: the pulse crosses the interface (and reaches the
            # wall).
            self.assertEqual(set(model.tolist()), set(range(len(f.models))), name)
        sections = [m["section"] for m in self.interface.models]
        self.assertEqual(sorted(sections), ["contact", "contact.ptfe.ptfe", "contact.steel.ptfe"])
        wall_rows = self.wall.contacts["second"] < 0
        self.assertTrue(wall_rows.any())
        wall_model = [m["section"] for m in self.wall.models].index("contact.wall_end.ptfe")
        self.assertTrue((self.wall.contacts["model"][wall_rows] == wall_model).all())

    def test_the_models_are_stored_with_their_laws_and_parameters(self):
        for f in (self.interface, self.wall):
            self.assertEqual(f.models[0]["section"], "contact")
            for model in f.models:
                # What /parameters/law holds of [contact], each model holds of its own.
                self.assertEqual(set(model) - {"section"}, set(f.law))
                self.assertEqual(model["id"], f.parameters["contact.law"])
                section = model["section"]
                given = f.parameters.get(f"{section}.restitution",
                                         f.parameters["contact.restitution"])
                self.assertEqual(model["restitution"], float(given), section)
            self.assertEqual({k: v for k, v in f.models[0].items() if k != "section"},
                             {k: text(v) if isinstance(v, (str, bytes)) else v
                              for k, v in f.law.items()})

    def test_section_energy_is_what_each_section_holds(self):
        for name, f in (("interface", self.interface), ("wall", self.wall)):
            a = f.section_attrs
            beads = f.material[f.first:f.first + f.count]
            self.assertEqual([text(m) for m in a["material"]], ["steel", "ptfe"], name)
            np.testing.assert_array_equal(a["first_bead"], [0, 20])
            np.testing.assert_array_equal(a["beads"], [20, 20])
            for first, count, material in zip(a["first_bead"], a["beads"], a["material"]):
                self.assertEqual(set(beads[first:first + count]), {text(material)})
            energy = f.observables["section_energy"]
            frames = len(f.observables["kinetic_energy"])
            self.assertEqual(energy.shape, (frames, 2), name)
            total = f.observables["kinetic_energy"] + f.observables["stored_energy"]
            for k in range(frames):
                kinetic, stored = f.kinetic(k), f.stored_by_particle(k)
                # Hertz's energy is what the file's contacts store.
                self.assertAlmostEqual(stored.sum(), f.observables["stored_energy"][k],
                                       delta=1e-9 * total[k])
                for s, (first, count) in enumerate(zip(a["first_bead"], a["beads"])):
                    bodies = slice(f.first + first, f.first + first + count)
                    self.assertAlmostEqual(energy[k, s],
                                           kinetic[bodies].sum() + stored[bodies].sum(),
                                           delta=1e-9 * total[k], msg=f"{name} frame {k}")
                # The sections, the striker's kinetic energy and its share of the stored energy
                # are all the energy the bodies hold.
                striker = kinetic[f.striker] + stored[f.striker]
                self.assertAlmostEqual(energy[k].sum() + striker, total[k],
                                       delta=1e-12 * total[k], msg=f"{name} frame {k}")
            # At the start the striker alone moves and nothing is pressed.
            self.assertAlmostEqual(energy[0].sum() + f.kinetic(0)[f.striker], total[0],
                                   delta=1e-12 * total[0])
            # The pulse carries its energy across the interface.
            self.assertGreater(energy[:, 1].max(), 0.1 * total[0])

    def test_summary_per_model(self):
        for f in (self.interface, self.wall):
            s = f.model_summary
            self.assertEqual(list(s["section"]), [m["section"] for m in f.models])
            self.assertEqual(list(s["law"]), [m["id"] for m in f.models])
            self.assertEqual(f.model_summary_units["dissipated_energy"], "kg m+2 s-2")  # J
            self.assertEqual(s["isolated_contacts"].dtype, np.int64)
            self.assertTrue((s["dissipated_energy"] > 0).all())  # every model is damped
            self.assertAlmostEqual(s["dissipated_energy"].sum(), f.summary["dissipated_energy"],
                                   delta=1e-12 * f.summary["dissipated_energy"])
            self.assertEqual(s["isolated_contacts"].sum(), f.summary["isolated_contacts"])
            for k, model in enumerate(f.models):
                if s["isolated_contacts"][k] == 0:
                    for part in ("mean", "min", "max"):
                        self.assertTrue(np.isnan(s[f"isolated_restitution_{part}"][k]))
                    continue
                low, mean, high = (s[f"isolated_restitution_{p}"][k] for p in ("min", "mean", "max"))
                self.assertLessEqual(low, mean)
                self.assertLessEqual(mean, high)
                # A binary impact of a model's contact parts at about its restitution.
                self.assertAlmostEqual(mean, model["restitution"], delta=0.1, msg=model["section"])

    def test_a_case_of_one_model_writes_none_of_it(self):
        for case in ("default.ini", "dimer_chain.ini"):  # one material, and two
            path = run(self.tmp.name, case, os.path.join(SOURCE, "cases", case),
                       ("chain.count=8", "simulation.duration=4e-4"))
            with h5py.File(path, "r") as f:
                for absent in ("contacts/model", "parameters/contact_models",
                               "observables/section_energy", "summary/models"):
                    self.assertNotIn(absent, f, f"{case}: {absent}")
                self.assertIn("contacts/first", f)
                self.assertIn("parameters/law", f)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
