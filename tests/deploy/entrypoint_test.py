#!/usr/bin/python3
"""The image's entrypoint (deploy/entrypoint.sh) run against the built
referee, in the environment the StatefulSet gives its container.

The test lays out a pod's filesystem in a temporary folder: each volume the
manifest mounts becomes a folder, the Secrets' keys become files in them (an
admin token; a TLS certificate and key made here with openssl), and every
environment value under a mount path is moved there. Only the listen
addresses change (the manifest's ports become free loopback ports) and the
referee binary is the built one. Then:
  - every probe the manifest declares (startup, liveness, readiness), asked
    as the kubelet asks (plaintext gRPC health check on the probe's port,
    with its service name), answers SERVING; the API port itself speaks only
    TLS (why the health listener exists) and answers a health check over
    TLS;
  - a game created over TLS with the admin token from the Secret file is
    played by two cassino-bot processes over TLS; a consistent copy taken
    with `sqlite3 .backup` while the referee runs verifies with `cassino
    verify` (and so does one made with `VACUUM INTO`); SIGTERM makes the referee (the container's main process, via
    exec) shut down and exit 0 with every game recorded; a restart on the
    same volume resumes the unfinished game;
  - as PID 1 of its own PID namespace, as in a container, the referee still
    stops cleanly on SIGTERM;
  - a missing Secret, volume or key, or TLS required but absent, stops the
    entrypoint with a clear message and exit status 2.

usage: entrypoint_test.py REFEREE CASSINO_CLI CASSINO_BOT
"""

import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import deploy_files as df  # noqa: E402

REFEREE = CLI = BOT = None
ENTRYPOINT = df.path("deploy", "entrypoint.sh")
STARTUP_LIMIT_S = 30


def make_tls(directory):
    """A CA and a server certificate for loopback and replica 0's names;
    returns (ca.pem, server cert, server key)."""
    ca_key, ca = (os.path.join(directory, n) for n in ("ca.key", "ca.pem"))
    key, csr, cert = (os.path.join(directory, n)
                      for n in ("server.key", "server.csr", "server.pem"))
    ext = os.path.join(directory, "san.cnf")
    with open(ext, "w") as f:
        f.write("subjectAltName=DNS:localhost,IP:127.0.0.1,"
                "DNS:cassino-referee-0,"
                "DNS:cassino-referee-0.cassino-referee\n")

    def run(*args):
        subprocess.run(["openssl", *args], check=True, capture_output=True)

    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", ca_key,
        "-out", ca, "-days", "2", "-subj", "/CN=cassino test CA")
    run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", csr,
        "-subj", "/CN=cassino-referee-0")
    run("x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key,
        "-CAcreateserial", "-out", cert, "-days", "2", "-extfile", ext)
    return ca, cert, key


class Pod:
    """The referee container of the base StatefulSet, laid out under `root`
    (its volumes as folders, its Secrets as files) and run from the
    entrypoint."""

    def __init__(self, root, tls):
        self.root = root
        sts = df.the_statefulset(df.resource_objects(df.BASE))
        self.container = df.referee_container(sts)
        pod = sts["spec"]["template"]["spec"]
        volumes = {v["name"]: v for v in pod["volumes"]}
        self.admin_token = secrets.token_hex(32)
        ca, cert, key = tls
        self.ca = ca
        # What each Secret holds, by secret name.
        secret_files = {
            "cassino-referee-admin": {"token": self.admin_token},
            "cassino-referee-tls": {"tls.crt": read(cert),
                                    "tls.key": read(key)},
        }
        self.mounts = {}
        for mount in self.container["volumeMounts"]:
            local = os.path.join(root, mount["mountPath"].lstrip("/"))
            os.makedirs(local, exist_ok=True)
            self.mounts[mount["mountPath"].rstrip("/")] = local
            secret = volumes.get(mount["name"], {}).get("secret")
            if secret:
                for name, text in secret_files[secret["secretName"]].items():
                    with open(os.path.join(local, name), "w") as f:
                        f.write(text)
        self.env = {}
        for name, value in df.env_of(self.container).items():
            under = [m for m in self.mounts if value.startswith(m + "/")]
            if under:
                mount_path = max(under, key=len)
                value = self.mounts[mount_path] + value[len(mount_path):]
            self.env[name] = value
        # The manifest's ports, kept to map probes onto the local ones.
        self.manifest_api_port = df.port_of(self.env["CASSINO_LISTEN"])
        self.manifest_health_port = df.port_of(self.env["CASSINO_HEALTH_LISTEN"])
        self.env["CASSINO_LISTEN"] = "127.0.0.1:0"
        self.env["CASSINO_HEALTH_LISTEN"] = "127.0.0.1:0"
        self.env["CASSINO_REFEREE"] = REFEREE
        self.db = self.env["CASSINO_DB"]
        self.process = None
        self.log_path = os.path.join(root, "referee.log")

    def environment(self, **changes):
        env = {"PATH": os.environ["PATH"], "HOSTNAME": "cassino-referee-0"}
        env.update(self.env)
        for k, v in changes.items():
            if v is None:
                env.pop(k, None)
            else:
                env[k] = v
        return env

    def start(self, wrapper=()):
        port_file = os.path.join(self.root, "port")
        if os.path.exists(port_file):
            os.remove(port_file)
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [*wrapper, ENTRYPOINT, *self.container.get("args", []),
             "--port-file", port_file],
            env=self.environment(), stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + STARTUP_LIMIT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"the entrypoint exited "
                                     f"{self.process.returncode}:\n"
                                     f"{self.read_log()}")
            text = self.read_log()
            if os.path.exists(port_file) and "health on port" in text:
                with open(port_file) as f:
                    self.api_port = int(f.read().strip() or 0)
                self.health_port = int(
                    text.split("health on port ")[1].split()[0])
                if self.api_port:
                    return
            time.sleep(0.05)
        raise AssertionError("the referee did not start:\n" + self.read_log())

    def local_port(self, manifest_port):
        return {self.manifest_api_port: self.api_port,
                self.manifest_health_port: self.health_port}[manifest_port]

    def read_log(self):
        return read(self.log_path)

    def stop(self, pid=None):
        """SIGTERM (to `pid`, default the entrypoint's own process, which
        exec made the referee) and the exit status."""
        os.kill(pid or self.process.pid, signal.SIGTERM)
        try:
            return self.process.wait(timeout=60)
        finally:
            self.log.close()

    def kill(self):
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        if self.process:
            self.log.close()


def health(address, *args):
    return subprocess.run([CLI, "health", address, *args],
                          capture_output=True, text=True, timeout=30)


def read(file_name):
    with open(file_name) as f:
        return f.read()


def generate_stubs(directory):
    os.makedirs(directory, exist_ok=True)
    protos = [df.path("proto", "cassino", "v1", n)
              for n in ("game.proto", "referee_service.proto")]
    subprocess.run(
        ["protoc", "--proto_path=" + df.path("proto"),
         "--python_out=" + directory, "--grpc_python_out=" + directory,
         "--plugin=protoc-gen-grpc_python=" +
         shutil.which("grpc_python_plugin")] + protos, check=True)
    sys.path.insert(0, directory)


class EntrypointTestBase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="cassino-deploy-")
        cls.tls = make_tls(cls.tmp)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def new_pod(self, name):
        return Pod(os.path.join(self.tmp, name), self.tls)


class ProbesTest(EntrypointTestBase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.pod = Pod(os.path.join(cls.tmp, "probes"), cls.tls)
        cls.pod.start()

    @classmethod
    def tearDownClass(cls):
        cls.pod.kill()
        super().tearDownClass()

    def test_declared_probes_answer_serving_as_the_kubelet_asks(self):
        probes = [k for k in ("startupProbe", "livenessProbe",
                              "readinessProbe") if k in self.pod.container]
        self.assertEqual(len(probes), 3)
        for kind in probes:
            grpc_probe = self.pod.container[kind]["grpc"]
            port = self.pod.local_port(grpc_probe["port"])
            service = grpc_probe.get("service", "")
            out = health(f"127.0.0.1:{port}", "--service", service)
            self.assertEqual(out.returncode, 0,
                             f"{kind}: {out.stdout}{out.stderr}")
            self.assertTrue(out.stdout.rstrip().endswith(": SERVING"),
                            out.stdout)

    def test_api_port_speaks_only_tls(self):
        out = health(f"127.0.0.1:{self.pod.api_port}")
        self.assertEqual(out.returncode, 3, out.stdout + out.stderr)
        out = health(f"127.0.0.1:{self.pod.api_port}", "--tls-ca",
                     self.pod.ca, "--service", df.api_service_name())
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        # The certificate names replica 0 as the cluster does.
        out = health(f"127.0.0.1:{self.pod.api_port}", "--tls-ca",
                     self.pod.ca, "--tls-server-name",
                     "cassino-referee-0.cassino-referee")
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        out = health(f"127.0.0.1:{self.pod.api_port}", "--tls-ca",
                     self.pod.ca, "--tls-server-name", "someone-else")
        self.assertEqual(out.returncode, 3, out.stdout + out.stderr)

    def test_unknown_service_is_not_serving(self):
        out = health(f"127.0.0.1:{self.pod.health_port}", "--service",
                     "cassino.v1.NoSuchService")
        self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
        self.assertIn("SERVICE_UNKNOWN", out.stdout)

    def test_health_listener_serves_nothing_else(self):
        import grpc
        channel = grpc.insecure_channel(f"127.0.0.1:{self.pod.health_port}")
        call = channel.unary_unary("/cassino.v1.RefereeService/ListGames")
        with self.assertRaises(grpc.RpcError) as e:
            call(b"", timeout=10)
        self.assertEqual(e.exception.code(), grpc.StatusCode.UNIMPLEMENTED)
        channel.close()


class LifecycleTest(EntrypointTestBase):
    def test_game_over_tls_snapshot_sigterm_and_restart(self):
        import grpc
        generate_stubs(os.path.join(self.tmp, "gen"))
        from cassino.v1 import referee_service_pb2 as pb
        from cassino.v1 import referee_service_pb2_grpc as pb_grpc

        pod = self.new_pod("lifecycle")
        pod.start()
        try:
            address = f"127.0.0.1:{pod.api_port}"
            with open(pod.ca, "rb") as f:
                credentials = grpc.ssl_channel_credentials(f.read())
            channel = grpc.secure_channel(address, credentials)
            stub = pb_grpc.RefereeServiceStub(channel)

            def create(token):
                return stub.CreateGame(
                    pb.CreateGameRequest(
                        rules="standard",
                        seats=[pb.SeatSpec(bot_name="north"),
                               pb.SeatSpec(bot_name="south")]),
                    metadata=[("authorization", f"Bearer {token}")],
                    timeout=10)

            # The admin token is the one in the Secret file, and only it.
            with self.assertRaises(grpc.RpcError) as e:
                create("0" * 64)
            self.assertEqual(e.exception.code(),
                             grpc.StatusCode.UNAUTHENTICATED)
            played = create(pod.admin_token)
            unfinished = create(pod.admin_token)

            bots = [subprocess.Popen(
                [BOT, "--address", address, "--token", t.token, "--game",
                 played.game_id, "--tls-ca", pod.ca, "--strategy", "greedy",
                 "-q"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True) for t in played.tokens]
            for bot in bots:
                out, err = bot.communicate(timeout=120)
                self.assertEqual(bot.returncode, 0, out + err)

            # Consistent copies while the referee runs, both ways
            # docs/deployment.md gives.
            for n, command in enumerate(
                    (".backup '{}'", "VACUUM INTO '{}'")):
                snapshot = os.path.join(self.tmp, f"snapshot{n}.db")
                subprocess.run(["sqlite3", "-readonly", pod.db,
                                command.format(snapshot)], check=True,
                               timeout=60)
                out = subprocess.run([CLI, "verify", "--quiet", snapshot],
                                     capture_output=True, text=True)
                self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
                self.assertIn("verified 2 games: 2 ok", out.stdout)
            channel.close()

            # SIGTERM to the entrypoint's process: exec made it the referee.
            self.assertEqual(pod.stop(), 0, pod.read_log())
            self.assertIn("shutting down", pod.read_log())
            out = subprocess.run([CLI, "verify", "--quiet", pod.db],
                                 capture_output=True, text=True)
            self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
            self.assertIn("verified 2 games: 2 ok", out.stdout)

            # The same volume again: the unfinished game is resumed.
            pod.start()
            self.assertIn("1 unfinished game(s) resumed", pod.read_log())
            channel = grpc.secure_channel(f"127.0.0.1:{pod.api_port}",
                                          credentials)
            info = pb_grpc.RefereeServiceStub(channel).GetGame(
                pb.GetGameRequest(game_id=unfinished.game_id),
                metadata=[("authorization", f"Bearer {pod.admin_token}")],
                timeout=10)
            self.assertEqual(info.game.game_id, unfinished.game_id)
            self.assertEqual(info.game.status, pb.GAME_STATUS_RUNNING)
            channel.close()
            self.assertEqual(pod.stop(), 0, pod.read_log())
        finally:
            pod.kill()

    @unittest.skipIf(subprocess.run(["unshare", "--pid", "--fork", "true"],
                                    capture_output=True).returncode != 0,
                     "cannot make a PID namespace here (needs root)")
    def test_sigterm_as_pid_1(self):
        pod = self.new_pod("pid1")
        pod.start(wrapper=("unshare", "--pid", "--fork", "--kill-child"))
        try:
            children = read(f"/proc/{pod.process.pid}/task/"
                            f"{pod.process.pid}/children").split()
            self.assertEqual(len(children), 1)
            referee = int(children[0])
            with open(f"/proc/{referee}/status") as f:
                nspid = [line for line in f if line.startswith("NSpid:")][0]
            self.assertEqual(nspid.split()[-1], "1", "not PID 1")
            self.assertEqual(os.path.realpath(f"/proc/{referee}/exe"),
                             os.path.realpath(REFEREE))
            self.assertEqual(pod.stop(pid=referee), 0, pod.read_log())
            self.assertIn("shutting down", pod.read_log())
        finally:
            pod.kill()


class BadEnvironmentTest(EntrypointTestBase):
    def refused(self, pod, expected, **changes):
        out = subprocess.run([ENTRYPOINT], env=pod.environment(**changes),
                             capture_output=True, text=True, timeout=30)
        self.assertEqual(out.returncode, 2, out.stderr)
        self.assertIn(expected, out.stderr)
        self.assertFalse(os.path.exists(pod.db), "the referee was started")

    def test_missing_pieces_are_named(self):
        pod = self.new_pod("bad")
        token = pod.env["CASSINO_ADMIN_TOKEN_FILE"]
        self.refused(pod, "CASSINO_ADMIN_TOKEN_FILE: no file",
                     CASSINO_ADMIN_TOKEN_FILE=token + ".missing")
        self.refused(pod, "is the volume mounted?",
                     CASSINO_DB=os.path.join(pod.root, "nowhere", "x.db"))
        self.refused(pod, "CASSINO_REQUIRE_TLS=1 but no",
                     CASSINO_TLS_CERT=None, CASSINO_TLS_KEY=None)
        self.refused(pod, "go together", CASSINO_TLS_KEY=None)
        self.refused(pod, "CASSINO_TLS_CERT: no file",
                     CASSINO_TLS_CERT=pod.env["CASSINO_TLS_CERT"] + ".x")
        empty = os.path.join(pod.root, "empty")
        open(empty, "w").close()
        self.refused(pod, "is empty", CASSINO_ADMIN_TOKEN_FILE=empty)
        self.refused(pod, "is not an executable",
                     CASSINO_REFEREE=os.path.join(pod.root, "no-referee"))


if __name__ == "__main__":
    REFEREE, CLI, BOT = (os.path.abspath(a) for a in sys.argv[1:4])
    del sys.argv[1:4]
    unittest.main(verbosity=2)
