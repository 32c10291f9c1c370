"""Apache Jena for the tests that read the project's outputs with it (tests/test_jena.py),
and for anyone else who wants it (a benchmark): Debian's ``libapache-jena-java`` (Jena
4.5.0 on Debian 12), whose jars and their dependencies' are found through dpkg, and
``tests/jena/JenaJobs.java``, compiled once into a folder and run as one JVM for a batch
of jobs (a JVM's start and Jena's own costs ~1.5 s of CPU; the jobs, little)::

    from jena import jena  # noqa: F401  (a session fixture: skips, saying why)

    def test_x(jena, tmp_path):
        (said,) = jena.run([{"id": "a", "kind": "parse", "in": ..., "lang": "Turtle",
                             "out": str(tmp_path / "a.nq")}])

``classpath()`` gives the classpath (or raises ``Unavailable`` saying what is missing),
``unavailable()`` the reason to skip, ``Jena.compiled(folder)`` the program; the jobs and
what they print are described at the top of JenaJobs.java. ``.ci/run`` installs the
package (``apt-get install libapache-jena-java``), as it does rapper's.

Maven Central, where Jena 5.x is published, is not among the registries this project's
machines reach; Debian's package is."""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

PACKAGE = "libapache-jena-java"
SOURCE = Path(__file__).parent / "jena" / "JenaJobs.java"
JAVA_FOLDER = "/usr/share/java"
#: Of SLF4J's jars, the API and the one binding that writes to stderr: the package ships
#: bindings that refuse each other on one classpath (log4j-over-slf4j and slf4j-log4j12).
SLF4J_KEPT = {"slf4j-api.jar", "slf4j-simple.jar"}


class Unavailable(Exception):
    """Jena cannot be run here: the message says what is missing."""


def _dpkg(*args: str) -> str:
    done = subprocess.run(["dpkg-query", *args], capture_output=True, text=True)
    return done.stdout if done.returncode == 0 else ""


def _installed(package: str) -> bool:
    return _dpkg("-W", "-f=${Status}", package).endswith(" installed")


def _dependencies(package: str) -> list[str]:
    """The installed Java library packages ``package`` depends on (of each alternative,
    the first installed)."""
    found = []
    for clause in _dpkg("-W", "-f=${Depends}", package).split(","):
        for alternative in clause.split("|"):
            name = alternative.split("(")[0].strip().split(":")[0]
            if name and _installed(name):
                if name.endswith("-java"):
                    found.append(name)
                break
    return found


@functools.cache
def classpath() -> str:
    """The jars of Debian's Jena and of every Java library it depends on, each once."""
    for tool in ("java", "javac", "dpkg-query"):
        if shutil.which(tool) is None:
            raise Unavailable(f"no {tool} on PATH (Jena's tests need a JDK, Debian's)")
    if not _installed(PACKAGE):
        raise Unavailable(f"Apache Jena is not installed (Debian package {PACKAGE})")
    packages, todo = [], [PACKAGE]
    while todo:
        package = todo.pop()
        if package not in packages:
            packages.append(package)
            todo.extend(_dependencies(package))
    jars: dict[str, str] = {}  # real file: the name it is listed by
    for package in sorted(packages):
        for line in sorted(_dpkg("-L", package).splitlines()):
            path = Path(line)
            if str(path.parent) != JAVA_FOLDER or path.suffix != ".jar":
                continue
            if package == "libslf4j-java" and path.name not in SLF4J_KEPT:
                continue
            jars.setdefault(os.path.realpath(path), line)
    return ":".join(sorted(jars.values()))


def unavailable() -> str | None:
    """Why Jena cannot be run here, or None when it can."""
    try:
        classpath()
    except Unavailable as missing:
        return str(missing)
    return None


def _xerces_messages(path: str, folder: Path) -> None:
    """Debian's jena-core 4.5.0-2 holds Jena's copy of Xerces in the package ``xerces``
    where Jena has it in ``org.apache.jena.ext.xerces``, and its message files (resource
    bundles) under the latter only: its classes ask for ``xerces.impl.xpath.regex.message``
    and fail as the first XSD datatype is made, in Jena's initialisation ('RuntimeException:
    internal error' at XSSimpleTypeDecl.applyFacets1). The files are copied into ``folder``
    under the name the classes use; a jena-core with no such package needs none."""
    moved = "org/apache/jena/ext/xerces/"
    for jar in path.split(":"):
        if not Path(jar).name.startswith("jena-core"):
            continue
        with zipfile.ZipFile(jar) as archive:
            names = set(archive.namelist())
            if "xerces/impl/xpath/regex/RegexParser.class" not in names:
                return
            for name in sorted(names):
                wanted = "xerces/" + name[len(moved) :]
                if name.startswith(moved) and not name.endswith((".class", "/")):
                    if wanted not in names:
                        (folder / wanted).parent.mkdir(parents=True, exist_ok=True)
                        (folder / wanted).write_bytes(archive.read(name))


@dataclass(frozen=True)
class Jena:
    """JenaJobs compiled into ``folder``, run with ``classpath``."""

    folder: Path
    classpath: str

    @classmethod
    def compiled(cls, folder: Path) -> Jena:
        """JenaJobs.java compiled into ``folder`` (~1 s of CPU), with the message files
        Debian's jena-core lacks (``_xerces_messages``)."""
        path = classpath()
        _xerces_messages(path, folder)
        # No annotation processors to look for among the jars, no other source to
        # compile, C1 and the serial collector: 2.1 -> 1.2 s of CPU.
        subprocess.run(
            [
                "javac",
                "-nowarn",
                "-proc:none",
                "-implicit:none",
                "-J-XX:TieredStopAtLevel=1",
                "-J-XX:+UseSerialGC",
                "-encoding",
                "UTF-8",
                "-cp",
                path,
                "-d",
                str(folder),
                SOURCE,
            ],
            check=True,
            capture_output=True,
        )
        return cls(folder, f"{folder}:{path}")

    def run(self, jobs: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
        """Run ``jobs`` in one JVM; what each said, by its id. A JVM that fails, or
        writes to stderr (SLF4J's log: a warning of Jena's that no job collected), is an
        AssertionError showing it."""
        listing = self.folder / f"jobs-{os.getpid()}-{id(jobs)}.json"
        listing.write_text(json.dumps(list(jobs)), encoding="utf-8")
        # C1 only and the serial collector: the jobs are short, and C2's compiler threads
        # and G1's cost more than they save (test_jena's 86 jobs: 9.7 s of CPU by
        # default, 4.4 s with C1 only, 4.0 s with the serial collector too; load 14).
        done = subprocess.run(
            [
                "java",
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                self.classpath,
                "JenaJobs",
                str(listing),
            ],
            capture_output=True,
            text=True,
            encoding="utf-8",
        )
        assert done.returncode == 0 and not done.stderr, done.stderr
        said = [json.loads(line) for line in done.stdout.splitlines()]
        return {one["id"]: one for one in said}


@pytest.fixture(scope="session")
def jena(tmp_path_factory: pytest.TempPathFactory) -> Jena:
    """JenaJobs compiled once a session; the test skips, saying why, without Jena."""
    reason = unavailable()
    if reason:
        pytest.skip(reason)
    return Jena.compiled(tmp_path_factory.mktemp("jena"))


def quiet(said: Mapping[str, Any]) -> Iterable[str]:
    """What a job said that is not silence: its exception, warnings and errors."""
    if "exception" in said:
        yield said["exception"]
    yield from said.get("warnings", ())
    yield from said.get("errors", ())
