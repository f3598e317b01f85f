#!/usr/bin/python3
"""The Kubernetes manifests (deploy/k8s) parse and hold together.

Every YAML file parses; every kustomization lists files that exist and
patches objects that exist; and the objects satisfy what the referee needs
of them:
  - every container has liveness and readiness probes (and a startup probe)
    of type grpc, on the port where the container's environment makes the
    referee serve its plaintext health listener, asking about services the
    referee answers for ("" and the API's full name from its proto);
  - the admin token and the TLS certificate and key are files inside
    mounted Secret volumes, and TLS is required;
  - the volumeClaimTemplate is mounted at the directory of CASSINO_DB;
  - ports agree across the container, its environment and the Services;
    there is a headless governing Service and one Service per replica,
    selecting exactly that replica's pod;
  - a PodDisruptionBudget covers the pods; the grace period outlasts the
    referee's own shutdown; resources fit a 2-core node.
The checks run on the base, on each overlay as its files compose it (base
plus its own resources and replica count), and, when `kubectl` is on the
PATH, on what `kubectl kustomize` renders for each. (No cluster is needed or
used: nothing is applied.)
"""

import os
import re
import shutil
import subprocess
import sys
import unittest

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import deploy_files as df  # noqa: E402

SECRET_TLS_KEYS = {"tls.crt", "tls.key", "ca.crt"}


def cpu_cores(quantity):
    q = str(quantity)
    return float(q[:-1]) / 1000 if q.endswith("m") else float(q)


def mebibytes(quantity):
    units = {"Ki": 1 / 1024, "Mi": 1, "Gi": 1024}
    m = re.fullmatch(r"(\d+)(Ki|Mi|Gi)", str(quantity))
    assert m, f"unexpected memory quantity {quantity}"
    return int(m.group(1)) * units[m.group(2)]


def check_objects(test, objects, replicas, where):
    """Every invariant over one set of objects; `replicas` is the count the
    set is meant to run with."""
    sts = df.the_statefulset(objects)
    spec = sts["spec"]
    pod = spec["template"]["spec"]
    test.assertEqual(spec.get("replicas"), replicas, where)
    # The selector selects the pods.
    pod_labels = spec["template"]["metadata"]["labels"]
    for k, v in spec["selector"]["matchLabels"].items():
        test.assertEqual(pod_labels.get(k), v, f"{where}: selector {k}")

    container = df.referee_container(sts)
    env = df.env_of(container)
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    api_port = df.port_of(env["CASSINO_LISTEN"])
    health_port = df.port_of(env["CASSINO_HEALTH_LISTEN"])
    test.assertEqual(ports.get("grpc"), api_port, f"{where}: grpc port")
    test.assertEqual(ports.get("health"), health_port, f"{where}: health port")
    test.assertNotEqual(api_port, health_port, where)

    # Probes: grpc, on the health listener, services the referee knows.
    known_services = {"", df.api_service_name()}
    for kind in ("livenessProbe", "readinessProbe", "startupProbe"):
        probe = container.get(kind)
        test.assertIsNotNone(probe, f"{where}: no {kind}")
        test.assertEqual(set(probe) & {"grpc", "httpGet", "tcpSocket", "exec"},
                         {"grpc"}, f"{where}: {kind} must be a grpc probe")
        test.assertIsInstance(probe["grpc"]["port"], int,
                              f"{where}: {kind}: a grpc probe's port is a "
                              "number (Kubernetes allows no port name here)")
        test.assertEqual(probe["grpc"]["port"], health_port,
                         f"{where}: {kind} is not on the health listener")
        test.assertIn(probe["grpc"].get("service", ""), known_services,
                      f"{where}: {kind} asks about an unknown service")
    test.assertEqual(container["readinessProbe"]["grpc"].get("service"),
                     df.api_service_name(),
                     f"{where}: readiness is the API's own status")

    # Secrets: the admin token and TLS are files in mounted Secret volumes.
    volumes = {v["name"]: v for v in pod["volumes"]}
    mounts = container["volumeMounts"]

    def secret_holding(file_path):
        for m in mounts:
            if os.path.dirname(file_path) == m["mountPath"].rstrip("/"):
                volume = volumes.get(m["name"], {})
                if "secret" in volume:
                    return volume["secret"]["secretName"], m
        return None, None

    for var in ("CASSINO_ADMIN_TOKEN_FILE", "CASSINO_TLS_CERT",
                "CASSINO_TLS_KEY"):
        test.assertIn(var, env, f"{where}: {var} is not set")
        secret, mount = secret_holding(env[var])
        test.assertIsNotNone(secret, f"{where}: {var}={env[var]} is not in "
                                     "a mounted Secret")
        test.assertTrue(mount.get("readOnly"), f"{where}: {var} mount")
    for var in ("CASSINO_TLS_CERT", "CASSINO_TLS_KEY"):
        test.assertIn(os.path.basename(env[var]), SECRET_TLS_KEYS,
                      f"{where}: {var} is not a kubernetes.io/tls key")
    test.assertEqual(env.get("CASSINO_REQUIRE_TLS"), "1",
                     f"{where}: TLS must be required")
    test.assertNotIn("CASSINO_ADMIN_TOKEN", env,
                     f"{where}: the admin token belongs in a Secret file")
    for e in container.get("env", []):
        test.assertNotRegex(str(e.get("value", "")), r"[0-9a-f]{32}",
                            f"{where}: {e['name']} looks like a secret")

    # The database lives on the claim template's volume.
    templates = {t["metadata"]["name"] for t in spec["volumeClaimTemplates"]}
    db_dir = os.path.dirname(env["CASSINO_DB"])
    data = [m for m in mounts if m["mountPath"].rstrip("/") == db_dir]
    test.assertEqual(len(data), 1, f"{where}: nothing mounted at {db_dir}")
    test.assertIn(data[0]["name"], templates,
                  f"{where}: {db_dir} is not a volumeClaimTemplate")
    test.assertNotIn(data[0]["name"], volumes,
                     f"{where}: {db_dir} shadowed by a pod volume")

    # Security and lifetime.
    security = pod["securityContext"]
    test.assertTrue(security.get("runAsNonRoot"), where)
    test.assertEqual(security.get("fsGroup"), security.get("runAsGroup"),
                     f"{where}: the volume must be writable by the user")
    # The referee's stop ends within its --stop-timeout-ms whatever its
    # clients do; Kubernetes must not SIGKILL it before.
    test.assertGreaterEqual(pod["terminationGracePeriodSeconds"],
                            df.shutdown_grace_seconds() + 2,
                            f"{where}: the referee's stop may take longer")
    test.assertIn(spec.get("persistentVolumeClaimRetentionPolicy", {})
                  .get("whenScaled"), ("Retain", None),
                  f"{where}: scaling down must keep the records")

    # Resources fit a 2-core node, with room for the system's pods.
    res = container["resources"]
    test.assertLessEqual(cpu_cores(res["requests"]["cpu"]), 1.0, where)
    test.assertLessEqual(mebibytes(res["requests"]["memory"]),
                         mebibytes(res["limits"]["memory"]), where)

    # Services: the governing one is headless; one per replica.
    services = {s["metadata"]["name"]: s for s in df.of_kind(objects,
                                                                "Service")}
    governing = services.get(spec["serviceName"])
    test.assertIsNotNone(governing, f"{where}: no governing Service")
    test.assertEqual(governing["spec"].get("clusterIP"), "None",
                     f"{where}: the governing Service must be headless")
    name = sts["metadata"]["name"]
    per_replica = {n: s for n, s in services.items()
                   if "statefulset.kubernetes.io/pod-name" in
                   s["spec"].get("selector", {})}
    test.assertEqual(sorted(per_replica),
                     sorted(f"{name}-{i}" for i in range(replicas)),
                     f"{where}: one Service per replica, named for its pod")
    for service_name, s in services.items():
        selector = s["spec"]["selector"]
        pod_name = selector.get("statefulset.kubernetes.io/pod-name")
        if pod_name is not None:
            test.assertEqual(pod_name, service_name, where)
        for k, v in selector.items():
            if k != "statefulset.kubernetes.io/pod-name":
                test.assertEqual(pod_labels.get(k), v,
                                 f"{where}: Service {service_name} selects "
                                 "no referee pod")
        for p in s["spec"]["ports"]:
            target = p.get("targetPort", p["port"])
            target = ports.get(target, target)
            test.assertEqual(target, api_port,
                             f"{where}: Service {service_name} port")

    # The disruption budget covers the pods and lets one go at a time.
    pdbs = df.of_kind(objects, "PodDisruptionBudget")
    test.assertEqual(len(pdbs), 1, where)
    for k, v in pdbs[0]["spec"]["selector"]["matchLabels"].items():
        test.assertEqual(pod_labels.get(k), v, f"{where}: PDB selector")
    test.assertEqual(pdbs[0]["spec"].get("maxUnavailable"), 1, where)


class ManifestFilesTest(unittest.TestCase):
    def test_every_file_parses_as_kubernetes_objects(self):
        files = df.yaml_files()
        self.assertGreater(len(files), 3)
        for f in files:
            docs = df.load_documents(f)
            self.assertTrue(docs, f"{f}: empty")
            for d in docs:
                self.assertIn("apiVersion", d, f)
                self.assertIn("kind", d, f)
                if d["kind"] != "Kustomization":
                    self.assertIn("name", d.get("metadata", {}), f)

    def test_kustomizations_list_existing_files_and_objects(self):
        for directory in df.kustomize_directories():
            k = df.kustomization(directory)
            for entry in k.get("resources", []):
                target = os.path.normpath(os.path.join(directory, entry))
                self.assertTrue(
                    os.path.isfile(target) or os.path.isfile(
                        os.path.join(target, "kustomization.yaml")),
                    f"{directory}: resource {entry} does not exist")
            objects = df.resource_objects(directory)
            names = {(o["kind"], o["metadata"]["name"]) for o in objects
                     if "metadata" in o}
            for patch in k.get("patches", []):
                if "path" in patch:
                    patch_file = os.path.join(directory, patch["path"])
                    self.assertTrue(os.path.isfile(patch_file), patch_file)
                    for d in df.load_documents(patch_file):
                        self.assertIn((d["kind"], d["metadata"]["name"]),
                                      names, f"{patch_file} patches nothing")
                else:
                    target = patch["target"]
                    selected = [o for o in objects
                                if o["kind"] == target.get("kind")
                                and self._selects(target, o)]
                    self.assertTrue(selected, f"{directory}: a patch "
                                              f"targets nothing: {target}")
            for r in k.get("replicas", []):
                self.assertIn(("StatefulSet", r["name"]), names, directory)
            for image in k.get("images", []):
                used = {c["image"].rsplit(":", 1)[0]
                        for s in df.of_kind(objects, "StatefulSet")
                        for c in s["spec"]["template"]["spec"]["containers"]}
                self.assertIn(image["name"], used,
                              f"{directory}: image {image['name']} unused")

    @staticmethod
    def _selects(target, obj):
        selector = target.get("labelSelector")
        if not selector:
            return target.get("name") in (None, obj["metadata"]["name"])
        labels = obj["metadata"].get("labels", {})
        return all(labels.get(k) == v for k, v in
                   (term.split("=", 1) for term in selector.split(",")))

    def test_base(self):
        objects = df.resource_objects(df.BASE)
        replicas = df.the_statefulset(objects)["spec"]["replicas"]
        check_objects(self, objects, replicas, "base")

    def test_overlays_as_their_files_compose_them(self):
        overlays = [d for d in df.kustomize_directories() if d != df.BASE]
        self.assertTrue(overlays, "no example overlay")
        for directory in overlays:
            objects = df.resource_objects(directory)
            k = df.kustomization(directory)
            sts = df.the_statefulset(objects)
            for r in k.get("replicas", []):
                sts["spec"]["replicas"] = r["count"]
            check_objects(self, objects, sts["spec"]["replicas"],
                          os.path.relpath(directory, df.ROOT))

    def test_image_is_the_project_version(self):
        sts = df.the_statefulset(df.resource_objects(df.BASE))
        image = df.referee_container(sts)["image"]
        self.assertEqual(image, f"cassino-referee:{df.project_version()}")
        for directory in df.kustomize_directories():
            for entry in df.kustomization(directory).get("images", []):
                if "newTag" in entry:
                    self.assertEqual(entry["newTag"], df.project_version())

    def test_documentation_names_what_the_manifests_use(self):
        with open(df.path("docs", "deployment.md"), encoding="utf-8") as f:
            doc = f.read()
        sts = df.the_statefulset(df.resource_objects(df.BASE))
        pod = sts["spec"]["template"]["spec"]
        container = df.referee_container(sts)
        env = df.env_of(container)
        name, governing = sts["metadata"]["name"], sts["spec"]["serviceName"]
        expected = [
            f"docker build -f deploy/Dockerfile -t {container['image']} .",
            f"{name}-N.{governing}.NAMESPACE.svc",
            f"terminationGracePeriodSeconds: "
            f"{pod['terminationGracePeriodSeconds']}",
            env["CASSINO_DB"], str(df.port_of(env["CASSINO_LISTEN"])),
            str(df.port_of(env["CASSINO_HEALTH_LISTEN"])),
            container["resources"]["requests"]["cpu"],
        ]
        for v in pod["volumes"]:
            if "secret" in v:
                expected.append(v["secret"]["secretName"])
        for mount in container["volumeMounts"]:
            expected.append(mount["mountPath"])
        for text in expected:
            self.assertIn(text, doc, "docs/deployment.md does not say it")

    @unittest.skipIf(shutil.which("kubectl") is None,
                     "kubectl is not installed: rendered output not checked")
    def test_rendered_by_kubectl_kustomize(self):
        for directory in df.kustomize_directories():
            out = subprocess.run(["kubectl", "kustomize", directory],
                                 capture_output=True, text=True)
            self.assertEqual(out.returncode, 0, out.stderr)
            objects = [d for d in yaml.safe_load_all(out.stdout) if d]
            sts = df.the_statefulset(objects)
            where = "rendered " + os.path.relpath(directory, df.ROOT)
            check_objects(self, objects, sts["spec"]["replicas"], where)
            namespace = df.kustomization(directory).get("namespace")
            if namespace:
                for o in objects:
                    if o["kind"] != "Namespace":
                        self.assertEqual(o["metadata"].get("namespace"),
                                         namespace, where)


class CheckerTest(unittest.TestCase):
    """The checks above catch what they claim to: each broken copy of the
    base fails them."""

    def _fails(self, mutate):
        objects = yaml.safe_load(yaml.safe_dump(
            df.resource_objects(df.BASE)))
        sts = df.the_statefulset(objects)
        mutate(objects, sts, df.referee_container(sts))
        with self.assertRaises(AssertionError):
            check_objects(self, objects, sts["spec"]["replicas"], "mutated")

    def test_each_mutation_is_caught(self):
        api = df.api_service_name()

        def probe_on_api_port(o, s, c):
            c["livenessProbe"]["grpc"]["port"] = 50051

        def probe_over_http(o, s, c):
            c["readinessProbe"] = {"httpGet": {"port": 50052, "path": "/"}}

        def named_probe_port(o, s, c):
            c["startupProbe"]["grpc"]["port"] = "health"

        def unknown_service(o, s, c):
            c["readinessProbe"]["grpc"]["service"] = api + "X"

        def token_in_env(o, s, c):
            c["env"].append({"name": "CASSINO_ADMIN_TOKEN", "value": "x"})

        def tls_from_empty_dir(o, s, c):
            for v in s["spec"]["template"]["spec"]["volumes"]:
                if v["name"] == "tls":
                    v.pop("secret")
                    v["emptyDir"] = {}

        def db_off_volume(o, s, c):
            for e in c["env"]:
                if e["name"] == "CASSINO_DB":
                    e["value"] = "/data/cassino.db"

        def missing_replica_service(o, s, c):
            s["spec"]["replicas"] += 1

        def short_grace(o, s, c):
            s["spec"]["template"]["spec"]["terminationGracePeriodSeconds"] = 2

        def plaintext_allowed(o, s, c):
            c["env"] = [e for e in c["env"]
                        if e["name"] != "CASSINO_REQUIRE_TLS"]

        for mutation in (probe_on_api_port, probe_over_http, named_probe_port,
                         unknown_service, token_in_env, tls_from_empty_dir,
                         db_off_volume, missing_replica_service, short_grace,
                         plaintext_allowed):
            with self.subTest(mutation.__name__):
                self._fails(mutation)


if __name__ == "__main__":
    unittest.main(verbosity=2)
