#!/usr/bin/python3
"""deploy/Dockerfile checked without a container engine.

No engine runs on the development machine, so the image is never built
here. What can be checked is:
  - every COPY source exists and is not excluded from the build context;
  - the build stage installs scripts/lib.sh's BUILD_PACKAGES with the
    project's own install_deps and builds with its build_profiled function
    (the profile-guided engine); and a tree made of exactly what the build
    stage copies configures with the stage's CMake arguments (so no file the
    build needs is left out);
  - the runtime stage installs no -dev package, only runtime counterparts of
    lib.sh's packages, and (with what apt brings along) every package that
    provides a shared library the built binaries load (from ldd and dpkg);
  - the binaries copied from the build stage are where CMake puts them; the
    entrypoint is the copied script, executable in git;
  - the image's user, volume, ports, environment and health check agree with
    the manifests and the entrypoint's defaults.

usage: dockerfile_test.py BUILD_DIR REFEREE_BINARY CLI_BINARY
"""

import fnmatch
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import deploy_files as df  # noqa: E402

BUILD_DIR = REFEREE = CLI = None


def stage(name):
    for stage_name, instructions in df.dockerfile_stages():
        if stage_name == name:
            return instructions
    raise KeyError(name)


def runtime_stage():
    return df.dockerfile_stages()[-1][1]


def instructions(stage_instructions, keyword):
    return [i for i in stage_instructions if i.keyword == keyword]


def apt_installed(stage_instructions):
    """Package names given to `apt-get install` in a stage's RUN lines."""
    packages = []
    for run in instructions(stage_instructions, "RUN"):
        for command in re.split(r"&&|;", run.text):
            words = command.split()
            if "apt-get" in words and "install" in words:
                after = words[words.index("install") + 1:]
                packages += [w for w in after if not w.startswith("-")]
    return packages


class InstalledPackages:
    """The installed Debian packages and their dependencies, read once from
    dpkg's status."""

    def __init__(self):
        out = subprocess.run(
            ["dpkg-query", "-W", "-f",
             "${Package}\t${db:Status-Abbrev}\t${Provides}\t${Depends},"
             "${Pre-Depends}\n"],
            capture_output=True, text=True, check=True).stdout
        self.depends, self.provider = {}, {}
        for line in out.splitlines():
            name, status, provides, depends = line.split("\t")
            if not status.startswith("ii"):
                continue
            self.depends[name] = depends
            for p in provides.split(","):
                self.provider.setdefault(_name(p), name)

    def installed(self, package):
        return package in self.depends

    def _resolve(self, name):
        if name in self.depends:
            return name
        return self.provider.get(name)

    def dependencies(self, package):
        """The installed packages it depends on (the first installed
        alternative of each clause)."""
        result = []
        for clause in self.depends.get(package, "").split(","):
            for alternative in clause.split("|"):
                resolved = self._resolve(_name(alternative))
                if resolved:
                    result.append(resolved)
                    break
        return result

    def closure(self, packages):
        seen, todo = set(), list(packages)
        while todo:
            p = todo.pop()
            if p not in seen:
                seen.add(p)
                todo += self.dependencies(p)
        return seen


def _name(dependency):
    return dependency.strip().split(" ")[0].split(":")[0]


def shared_library_packages(binaries):
    """{library file: Debian package} of every shared library the binaries
    load (ldd), the package found by dpkg -S under the path as given or as
    resolved (/lib is /usr/lib on merged-/usr systems)."""
    libraries = set()
    for binary in binaries:
        out = subprocess.run(["ldd", binary], capture_output=True, text=True,
                             check=True).stdout
        libraries |= set(re.findall(r"=>\s+(/\S+)", out))
    candidates = {}
    for lib in libraries:
        names = {lib, os.path.realpath(lib)}
        names |= {n[len("/usr"):] for n in names if n.startswith("/usr/lib/")}
        names |= {"/usr" + n for n in names if n.startswith("/lib/")}
        for n in names:
            candidates[n] = lib
    out = subprocess.run(["dpkg", "-S", *sorted(candidates)],
                         capture_output=True, text=True).stdout
    packages = {lib: None for lib in libraries}
    for line in out.splitlines():
        package, _, file_name = line.partition(": ")
        if file_name in candidates:
            packages[candidates[file_name]] = package.split(":")[0]
    return packages


class DockerfileTest(unittest.TestCase):
    def test_copy_sources_exist_in_the_context(self):
        ignored = df.dockerignore_patterns()
        copies = 0
        for _, stage_instructions in df.dockerfile_stages():
            for copy in instructions(stage_instructions, "COPY"):
                flags, sources, _ = df.copy_sources_and_destination(copy)
                if any(f.startswith("--from") for f in flags):
                    continue
                for source in sources:
                    copies += 1
                    self.assertTrue(os.path.exists(df.path(source)),
                                    f"COPY {source}: not in the repository")
                    for pattern in ignored:
                        self.assertFalse(
                            fnmatch.fnmatch(source, pattern.lstrip("*/"))
                            or fnmatch.fnmatch(source, pattern),
                            f"COPY {source} is excluded by {pattern}")
        self.assertGreater(copies, 5)

    def test_build_stage_uses_the_projects_packages_and_build(self):
        build = stage("build")
        runs = " ".join(r.text for r in instructions(build, "RUN"))
        self.assertIn('install_deps "${BUILD_PACKAGES[@]}"', runs)
        # The engine is profile-guided (scripts/lib.sh's build_profiled).
        self.assertIn("build_profiled --target cassino-referee cassino", runs)
        build_packages = df.lib_sh_array("BUILD_PACKAGES")
        self.assertTrue(set(build_packages) <= set(df.lib_sh_array("PACKAGES")))
        # lib.sh is copied before it is sourced.
        first_run = next(i for i, ins in enumerate(build) if ins.keyword == "RUN")
        copied_before = [s for ins in build[:first_run] if ins.keyword == "COPY"
                         for s in df.copy_sources_and_destination(ins)[1]]
        self.assertIn("scripts/lib.sh", copied_before)

    def test_what_the_build_stage_copies_configures(self):
        """The build stage's COPY set alone is a tree CMake configures with
        the stage's arguments: no source file the build needs is missing."""
        build = stage("build")
        runs = " ".join(r.text for r in instructions(build, "RUN"))
        cmake_args = re.search(r'CMAKE_ARGS="([^"]*)"', runs).group(1).split()
        with tempfile.TemporaryDirectory() as tmp:
            tree = os.path.join(tmp, "src")
            os.makedirs(tree)
            for copy in instructions(build, "COPY"):
                _, sources, destination = df.copy_sources_and_destination(copy)
                for source in sources:
                    target = os.path.join(tree, destination, os.path.basename(
                        source)) if destination.endswith("/") or \
                        destination == "./" else os.path.join(tree,
                                                              destination)
                    if os.path.isdir(df.path(source)):
                        shutil.copytree(df.path(source), target,
                                        ignore=shutil.ignore_patterns(
                                            "node_modules", "_gen"))
                    else:
                        os.makedirs(os.path.dirname(target), exist_ok=True)
                        shutil.copy(df.path(source), target)
            out = subprocess.run(
                ["cmake", "-S", tree, "-B", os.path.join(tmp, "build"),
                 "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release", *cmake_args],
                capture_output=True, text=True)
            self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
            targets = subprocess.run(
                ["ninja", "-C", os.path.join(tmp, "build"), "-t", "targets",
                 "all"], capture_output=True, text=True, check=True).stdout
            for binary in ("referee/cassino-referee", "tools/cassino",
                           "tools/engine_training"):
                self.assertRegex(targets, rf"(?m)^{re.escape(binary)}:",
                                 f"{binary} is not a target of that tree")
            self.assertNotRegex(targets, r"(?m)^tests/", "tests built in image")

    def test_binaries_are_copied_from_where_cmake_puts_them(self):
        copied = {}
        for copy in instructions(runtime_stage(), "COPY"):
            flags, sources, destination = df.copy_sources_and_destination(copy)
            if "--from=build" in flags:
                for s in sources:
                    copied[os.path.basename(s)] = (s, destination)
        for binary in (REFEREE, CLI):
            name = os.path.basename(binary)
            self.assertIn(name, copied, f"{name} is not copied into the image")
            source, destination = copied[name]
            self.assertEqual(os.path.relpath(source, "/src/build"),
                             os.path.relpath(binary, BUILD_DIR))
            self.assertEqual(destination, f"/usr/local/bin/{name}")

    def test_entrypoint_is_the_copied_script(self):
        runtime = runtime_stage()
        entrypoint = instructions(runtime, "ENTRYPOINT")[-1].json_or_words()
        copied = [df.copy_sources_and_destination(c)
                  for c in instructions(runtime, "COPY")]
        self.assertIn((["deploy/entrypoint.sh"], entrypoint[0]),
                      [(s, d) for _, s, d in copied])
        mode = subprocess.run(["git", "-C", df.ROOT, "ls-files", "-s",
                               "deploy/entrypoint.sh"], capture_output=True,
                              text=True, check=True).stdout.split()[0]
        self.assertEqual(mode, "100755", "entrypoint.sh is not executable")
        # The referee path the entrypoint defaults to is where it is copied.
        with open(df.path("deploy", "entrypoint.sh"), encoding="utf-8") as f:
            default = re.search(r'CASSINO_REFEREE:-([^}]+)\}', f.read())
        self.assertEqual(default.group(1), "/usr/local/bin/cassino-referee")

    def test_runtime_packages_are_runtime_counterparts(self):
        dpkg = InstalledPackages()
        runtime = apt_installed(runtime_stage())
        self.assertTrue(runtime)
        for p in runtime:
            self.assertFalse(p.endswith("-dev"), f"{p} in the runtime image")
            self.assertTrue(dpkg.installed(p), f"{p} is not installed here, "
                            "so it cannot be checked (or is misspelt)")
        # Each is what lib.sh's packages bring for running, not something
        # else: a dependency of one of them (or one of them, like sqlite3).
        counterparts = dpkg.closure(df.lib_sh_array("PACKAGES"))
        for p in runtime:
            self.assertIn(p, counterparts,
                          f"{p} is not a runtime counterpart of lib.sh's")
        # Together with what apt brings, they provide every shared library.
        provided = dpkg.closure(runtime)
        libraries = shared_library_packages([REFEREE, CLI])
        self.assertGreater(len(libraries), 5)
        for library, package in libraries.items():
            self.assertIsNotNone(package, f"{library}: no package")
            self.assertIn(package, provided,
                          f"the binaries load {library} from {package}, "
                          "which the runtime stage does not install")

    def test_image_agrees_with_the_manifests(self):
        runtime = runtime_stage()
        sts = df.the_statefulset(df.resource_objects(df.BASE))
        container = df.referee_container(sts)
        env = df.env_of(container)
        security = sts["spec"]["template"]["spec"]["securityContext"]

        user = instructions(runtime, "USER")[-1].text
        self.assertEqual(user, f"{security['runAsUser']}:"
                               f"{security['runAsGroup']}")
        volume = instructions(runtime, "VOLUME")[-1].text
        self.assertEqual(volume, os.path.dirname(env["CASSINO_DB"]))
        exposed = {int(p) for e in instructions(runtime, "EXPOSE")
                   for p in e.words()}
        self.assertEqual(exposed, {p["containerPort"]
                                   for p in container["ports"]})
        image_env = {}
        for e in instructions(runtime, "ENV"):
            for word in e.words():
                k, _, v = word.partition("=")
                image_env[k] = v
        for k, v in image_env.items():
            self.assertEqual(env.get(k), v, f"ENV {k}")
        # The entrypoint's defaults are the image's.
        with open(df.path("deploy", "entrypoint.sh"), encoding="utf-8") as f:
            script = f.read()
        for k, v in image_env.items():
            self.assertRegex(script, rf'\${{{k}:?-{re.escape(v)}\}}',
                             f"entrypoint default of {k}")
        # The health check asks what readiness asks, where readiness asks.
        check = instructions(runtime, "HEALTHCHECK")[-1].text
        readiness = container["readinessProbe"]["grpc"]
        self.assertIn(f"127.0.0.1:{readiness['port']}", check)
        self.assertIn(f'"--service", "{readiness["service"]}"', check)


if __name__ == "__main__":
    BUILD_DIR, REFEREE, CLI = (os.path.abspath(a) for a in sys.argv[1:4])
    del sys.argv[1:4]
    unittest.main(verbosity=2)
