// Checks the Kubernetes manifests (deploy/k8s) against the Kubernetes API's
// OpenAPI schema, as compiled into the npm package kubernetes-models: every
// object's fields have the types, formats and required members the API
// server would demand (a grpc probe's port must be a number, replicas an
// integer, a Service port an int32, ...). Unknown fields are not caught by
// these validators; tests/deploy/manifests_test.py checks the fields the
// referee depends on by name.
//
// Each whole object in the kustomize directories is checked (kustomization
// files themselves and the strategic-merge patches they apply, which are
// partial objects, are not); when `kubectl` is on the PATH, so is every
// object `kubectl kustomize` renders for the base and each overlay.
//
// usage: node schema_test.mjs   (exit 77 when node_modules is missing)

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const k8s = path.join(here, "..", "..", "deploy", "k8s");

let YAML;
try {
  YAML = (await import("yaml")).default;
  await import("kubernetes-models/v1");
} catch {
  console.log("SKIP: no node_modules in tests/deploy (npm install there)");
  process.exit(77);
}

// "apps/v1" -> kubernetes-models/apps/v1; "v1" -> kubernetes-models/v1.
async function modelFor(apiVersion, kind) {
  const module = await import(`kubernetes-models/${apiVersion}`);
  const model = module[kind];
  if (!model) throw new Error(`no schema for ${apiVersion} ${kind}`);
  return model;
}

function yamlFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return yamlFiles(p);
    return /\.ya?ml$/.test(e.name) ? [p] : [];
  });
}

const failures = [];
let checked = 0;

async function validate(object, where) {
  const name = `${where}: ${object.kind} ${object.metadata?.name}`;
  try {
    const Model = await modelFor(object.apiVersion, object.kind);
    new Model(object).validate();
    checked++;
  } catch (e) {
    failures.push(`${name}: ${e.message}`);
  }
}

const files = yamlFiles(k8s);
const kustomizations = files.filter((f) => path.basename(f) === "kustomization.yaml");
const patches = new Set();
for (const k of kustomizations) {
  const doc = YAML.parse(fs.readFileSync(k, "utf8"));
  for (const p of doc.patches ?? []) {
    if (p.path) patches.add(path.resolve(path.dirname(k), p.path));
  }
}
for (const f of files) {
  if (kustomizations.includes(f) || patches.has(path.resolve(f))) continue;
  for (const doc of YAML.parseAllDocuments(fs.readFileSync(f, "utf8"))) {
    const object = doc.toJS();
    if (object) await validate(object, path.relative(k8s, f));
  }
}

let kubectl = true;
try {
  execFileSync("kubectl", ["version", "--client"], { stdio: "ignore" });
} catch {
  kubectl = false;
  console.log("kubectl is not installed: rendered output not checked");
}
if (kubectl) {
  for (const k of kustomizations) {
    const dir = path.dirname(k);
    const out = execFileSync("kubectl", ["kustomize", dir], { encoding: "utf8" });
    for (const doc of YAML.parseAllDocuments(out)) {
      const object = doc.toJS();
      if (object) await validate(object, `rendered ${path.relative(k8s, dir)}`);
    }
  }
}

// The validators are live: a grpc probe with a named port is refused.
{
  const bad = YAML.parse(fs.readFileSync(path.join(k8s, "base", "statefulset.yaml"), "utf8"));
  bad.spec.template.spec.containers[0].livenessProbe.grpc.port = "health";
  const before = failures.length;
  await validate(bad, "mutated");
  if (failures.length === before) {
    failures.push("a named grpc probe port was not refused: the validators are not working");
  } else {
    failures.pop();
  }
}

for (const f of failures) console.log(`FAIL ${f}`);
console.log(`${checked} passed, ${failures.length} failed`);
process.exit(failures.length ? 1 : 0);
