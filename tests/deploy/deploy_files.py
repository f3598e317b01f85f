"""Readers of the deployment files (deploy/), shared by the deploy tests.

Everything here reads files and nothing else: the Kubernetes manifests as
YAML (python3-yaml), the Dockerfile as a list of instructions per stage, the
referee's own facts the deployment must agree with (the API's service name,
its shutdown grace, the project version), and the package lists of
scripts/lib.sh.
"""

import os
import re
import shlex
import subprocess

import yaml

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DEPLOY = os.path.join(ROOT, "deploy")
K8S = os.path.join(DEPLOY, "k8s")
BASE = os.path.join(K8S, "base")
OVERLAYS = os.path.join(K8S, "overlays")


def path(*parts):
    return os.path.join(ROOT, *parts)


# ---------------------------------------------------------------- YAML ----

def load_documents(file_name):
    """Every non-empty YAML document of a file."""
    with open(file_name, encoding="utf-8") as f:
        return [d for d in yaml.safe_load_all(f) if d is not None]


def yaml_files():
    found = []
    for dirpath, _, names in os.walk(K8S):
        found += [os.path.join(dirpath, n) for n in names
                  if n.endswith((".yaml", ".yml"))]
    return sorted(found)


def kustomization(directory):
    return load_documents(os.path.join(directory, "kustomization.yaml"))[0]


def kustomize_directories():
    """The base and every overlay: each directory with a kustomization."""
    return sorted(os.path.dirname(f) for f in yaml_files()
                  if os.path.basename(f) == "kustomization.yaml")


def resource_objects(directory):
    """The objects a kustomization's resources list, following directories
    (other kustomizations) but applying no transformation: what the files
    say, not what kustomize renders."""
    objects = []
    for entry in kustomization(directory).get("resources", []):
        target = os.path.normpath(os.path.join(directory, entry))
        if os.path.isdir(target):
            objects += resource_objects(target)
        else:
            objects += load_documents(target)
    return objects


def of_kind(objects, kind):
    return [o for o in objects if o.get("kind") == kind]


def the_statefulset(objects):
    sets = of_kind(objects, "StatefulSet")
    assert len(sets) == 1, f"expected one StatefulSet, found {len(sets)}"
    return sets[0]


def referee_container(statefulset):
    containers = statefulset["spec"]["template"]["spec"]["containers"]
    assert len(containers) == 1, "the referee pod has one container"
    return containers[0]


def env_of(container):
    """{name: value} of the container's literal environment."""
    return {e["name"]: e.get("value") for e in container.get("env", [])}


def port_of(address):
    """The port of "host:port" (also "[::]:port")."""
    return int(address.rsplit(":", 1)[1])


# ---------------------------------------------------------- Dockerfile ----

class Instruction:
    def __init__(self, keyword, text):
        self.keyword = keyword  # upper case
        self.text = text  # the rest, continuation lines joined

    def words(self):
        return shlex.split(self.text)

    def json_or_words(self):
        """Exec form (a JSON array) or shell words."""
        if self.text.lstrip().startswith("["):
            import json
            return json.loads(self.text)
        return self.words()

    def __repr__(self):
        return f"{self.keyword} {self.text}"


def dockerfile_stages(file_name=None):
    """[(stage name or None, [Instruction])] in order; comments dropped,
    backslash continuations joined."""
    file_name = file_name or os.path.join(DEPLOY, "Dockerfile")
    with open(file_name, encoding="utf-8") as f:
        lines = f.read().splitlines()
    logical, current = [], ""
    for line in lines:
        if not current and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.rstrip().endswith("\\"):
            current += line.rstrip()[:-1] + " "
            continue
        logical.append(current + line)
        current = ""
    stages = []
    for line in logical:
        keyword, _, rest = line.strip().partition(" ")
        instruction = Instruction(keyword.upper(), rest.strip())
        if instruction.keyword == "FROM":
            words = instruction.words()
            name = words[2] if len(words) == 3 and words[1].upper() == "AS" \
                else None
            stages.append((name, [instruction]))
        else:
            assert stages, f"instruction before FROM: {line}"
            stages[-1][1].append(instruction)
    return stages


def copy_sources_and_destination(instruction):
    """(flags, sources, destination) of a COPY."""
    words = instruction.words()
    flags = [w for w in words if w.startswith("--")]
    rest = [w for w in words if not w.startswith("--")]
    return flags, rest[:-1], rest[-1]


def dockerignore_patterns():
    with open(os.path.join(DEPLOY, "Dockerfile.dockerignore"),
              encoding="utf-8") as f:
        return [line.strip() for line in f
                if line.strip() and not line.startswith("#")]


# ---------------------------------------------------- the project's facts ----

def api_service_name():
    """The full name of the referee's gRPC service, from its proto."""
    with open(path("proto", "cassino", "v1", "referee_service.proto"),
              encoding="utf-8") as f:
        text = f.read()
    package = re.search(r"^package\s+([\w.]+)\s*;", text, re.M).group(1)
    service = re.search(r"^service\s+(\w+)\s*\{", text, re.M).group(1)
    return f"{package}.{service}"


def shutdown_grace_seconds():
    """The bound on the referee's whole stop (cassino-referee's default
    --stop-timeout-ms), in seconds: past it the process exits by itself."""
    with open(path("referee", "main.cc"), encoding="utf-8") as f:
        m = re.search(r"int64_t stop_timeout_ms = (\d+);", f.read())
    return int(m.group(1)) / 1000


def project_version():
    with open(path("CMakeLists.txt"), encoding="utf-8") as f:
        return re.search(r"project\(\w+ .*VERSION ([\d.]+)\)",
                         f.read()).group(1)


def lib_sh_array(name):
    """The words of an array variable of scripts/lib.sh, as bash sees it."""
    out = subprocess.run(
        ["bash", "-c", f'source "$1" >/dev/null && printf "%s\\n" '
                       f'"${{{name}[@]}}"', "_", path("scripts", "lib.sh")],
        capture_output=True, text=True, check=True)
    return out.stdout.split()
