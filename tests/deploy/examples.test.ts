/** @module The deployment examples an operator copies (Containerfile, compose.yaml, Kubernetes) agree with the service. */
// deno-lint-ignore-file no-explicit-any -- reads YAML whose shape each test checks where it uses it
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { loadConfig } from "../../src/app/config/config.ts";
import { ROOT } from "../support/service/process.ts";

const read = (path: string) => readFileSync(`${ROOT}${path}`, "utf8");
type Yaml = any;
const parseAll = (path: string): Yaml[] => [Bun.YAML.parse(read(path))].flat();

const CONTAINERFILE = read("Containerfile");
const DEPLOYMENT_PATH = "deploy/kubernetes/deployment.yaml";
const COMPOSE: Yaml = Bun.YAML.parse(read("deploy/compose.yaml"));
const MANIFESTS: Yaml[] = readdirSync(`${ROOT}deploy/kubernetes`).sort().flatMap((name) =>
  parseAll(`deploy/kubernetes/${name}`)
);
const manifest = (kind: string, name: string): Yaml =>
  MANIFESTS.find((m) => m.kind === kind && m.metadata.name === name);
const DEPLOYMENT = manifest("Deployment", "video-chat-service");
const CONTAINER = DEPLOYMENT.spec.template.spec.containers[0];

/** The Containerfile's `ENV` settings of the final stage. */
function imageEnv(): Record<string, string> {
  const finalStage = CONTAINERFILE.slice(CONTAINERFILE.lastIndexOf("\nFROM "));
  const env: Record<string, string> = {};
  for (const block of finalStage.matchAll(/^ENV ((?:.*\\\n)*.*)$/gm)) {
    for (const [, name, value] of block[1]!.matchAll(/([A-Z_]+)=(\S+)/g)) env[name!] = value!;
  }
  return env;
}

/** A compose value with `${NAME:-default}` and `${NAME:?message}` filled in as an operator's shell would. */
function interpolate(value: unknown): string {
  return String(value).replace(/\$\{\w+(?::-([^}]*)|:\?[^}]*)?\}/g, (_, fallback) => fallback ?? "set-by-operator");
}

/** Every variable name `loadConfig` reads when started on `env`, and whether that environment loads. */
function namesRead(env: Record<string, string>): { read: Set<string>; problem?: string } {
  const read = new Set<string>();
  const recording = new Proxy(env, {
    get(target, name) {
      if (typeof name === "string") read.add(name);
      return target[name as string];
    },
  });
  try {
    loadConfig(recording);
    return { read };
  } catch (error) {
    return { read, problem: String(error) };
  }
}

/** The environments the examples give a container, the image's own settings under them. */
function exampleEnvironments(): Record<string, Record<string, string>> {
  const environments: Record<string, Record<string, string>> = { Containerfile: imageEnv() };
  for (const [name, service] of Object.entries<Yaml>(COMPOSE.services)) {
    if (service.image !== "video-chat-service:latest") continue;
    const env = Object.fromEntries(Object.entries<unknown>(service.environment).map(([k, v]) => [k, interpolate(v)]));
    environments[`compose.yaml ${name}`] = { ...imageEnv(), ...env };
  }
  const env = Object.fromEntries(CONTAINER.env.map((e: { name: string; value: string }) => [e.name, e.value]));
  const secret = Object.fromEntries(secretNames().map((name) => [name, "set-by-operator"]));
  environments["kubernetes Deployment"] = { ...imageEnv(), ...secret, ...env };
  return environments;
}

/** The names the operator's Secret holds: the `kubectl create secret` command deployment.yaml documents. */
function secretNames(): string[] {
  const command = /kubectl create secret generic video-chat-service((?:.*\\\n)*.*)/.exec(read(DEPLOYMENT_PATH));
  return [...(command?.[1] ?? "").matchAll(/--from-literal=(\w+)=/g)].map((m) => m[1]!);
}

describe("the Containerfile", () => {
  test("Dockerfile and .dockerignore are copies of Containerfile and .containerignore (docker reads only those)", () => {
    expect(read("Dockerfile")).toBe(CONTAINERFILE);
    expect(read(".dockerignore")).toBe(read(".containerignore"));
  });

  test("EXPOSE names the public port only: `podman run -P` publishes no admin port unless asked", () => {
    const exposed = /^EXPOSE (.+)$/m.exec(CONTAINERFILE)?.[1]?.trim().split(/\s+/);
    expect(exposed).toEqual([imageEnv().PORT!]);
    expect(exposed).not.toContain(imageEnv().ADMIN_PORT);
  });

  test("the default build base is Bun at the version package-lock.json installs (the one the tests ran)", () => {
    const locked = JSON.parse(read("package-lock.json")).packages["node_modules/bun"].version;
    expect(/^ARG BUILD_IMAGE=docker\.io\/oven\/bun:(\S+)$/m.exec(CONTAINERFILE)?.[1]).toBe(locked);
  });
});

describe("every variable the examples set is one the configuration reads, with a value it accepts", () => {
  const environments = Object.entries(exampleEnvironments());

  test("the image, both compose instances and the Kubernetes Deployment are checked", () => {
    expect(environments.map(([where]) => where)).toEqual([
      "Containerfile",
      "compose.yaml chat-1",
      "compose.yaml chat-2",
      "kubernetes Deployment",
    ]);
  });

  test.each(environments)("%s", (_where, env) => {
    const { read, problem } = namesRead(env);
    expect(problem).toBeUndefined();
    expect(Object.keys(env).filter((name) => !read.has(name))).toEqual([]);
  });

  test("the check notices a name the configuration does not read", () => {
    const { read } = namesRead({ ...imageEnv(), GROQ_APIKEY: "typo" });
    expect(read.has("GROQ_APIKEY")).toBe(false);
    expect(read.has("KEYS_FILE")).toBe(true);
  });
});

describe("compose.yaml", () => {
  const instances = Object.entries<Yaml>(COMPOSE.services).filter(([, s]) => s.image === "video-chat-service:latest");

  test("runs two instances of the image sharing the file's Redis", () => {
    expect(instances.length).toBe(2);
    for (const [, service] of instances) {
      expect(service.environment.REDIS_URL).toBe("redis://redis:6379");
      expect(service.environment.REDIS_CACHE_URL).toBe("redis://redis-cache:6379");
      expect(service.depends_on).toEqual(["redis", "redis-cache"]);
    }
    expect(COMPOSE.services.redis.image).toMatch(/redis/);
    // Keys and usage are never evicted; the caches' Redis evicts the least recently used past its maxmemory.
    expect(COMPOSE.services.redis.command.join(" ")).toMatch(/--maxmemory \d+mb --maxmemory-policy noeviction/);
    expect(COMPOSE.services["redis-cache"].command.join(" ")).toMatch(
      /--maxmemory \d+mb --maxmemory-policy allkeys-lru/,
    );
    // The state on a named volume, kept across restarts and re-creations.
    expect(COMPOSE.services.redis.volumes).toEqual(["redis-data:/data"]);
    expect(Object.keys(COMPOSE.volumes)).toContain("redis-data");
  });

  test("both Redis servers ask for the password the instances send (REDIS_PASSWORD, required)", () => {
    for (const name of ["redis", "redis-cache"]) {
      const server = COMPOSE.services[name];
      expect(server.command.join(" ")).toContain('--requirepass "$$REDIS_PASSWORD"');
      expect(server.environment.REDIS_PASSWORD).toMatch(/^\$\{REDIS_PASSWORD:\?/);
    }
    for (const [, service] of instances) expect(service.environment.REDIS_PASSWORD).toMatch(/^\$\{REDIS_PASSWORD:\?/);
  });

  test("publishes each public port, and each admin port on the host's loopback only", () => {
    for (const [, service] of instances) {
      const ports: string[] = service.ports;
      expect(ports.filter((p) => p.endsWith(":3000")).length).toBe(1);
      expect(ports.filter((p) => p.endsWith(":9100"))).toEqual([expect.stringMatching(/^127\.0\.0\.1:\d+:9100$/)]);
    }
  });

  test("read-only but for a /data volume, with a stop grace longer than the service's", () => {
    for (const [, service] of instances) {
      expect(service.read_only).toBe(true);
      expect(service.volumes).toEqual([expect.stringMatching(/^[\w-]+:\/data$/)]);
      expect(Number.parseInt(service.stop_grace_period) * 1000).toBeGreaterThan(
        Number(service.environment.SHUTDOWN_GRACE_MS),
      );
    }
  });
});

describe("the Kubernetes manifests", () => {
  const env = Object.fromEntries(CONTAINER.env.map((e: { name: string; value: string }) => [e.name, e.value]));
  const ports = Object.fromEntries(CONTAINER.ports.map((p: { name: string; containerPort: number }) => [p.name, p]));

  test("the probes ask the admin listener's /healthz and /readyz, on the port ADMIN_PORT opens on the pod", () => {
    expect(CONTAINER.livenessProbe.httpGet).toEqual({ path: "/healthz", port: "admin" });
    expect(CONTAINER.readinessProbe.httpGet).toEqual({ path: "/readyz", port: "admin" });
    expect(ports.admin.containerPort).toBe(Number(env.ADMIN_PORT));
    expect(ports.http.containerPort).toBe(Number(env.PORT));
    expect(env.ADMIN_HOST).toBe("0.0.0.0");
  });

  test("the Service exposes the public port only", () => {
    const service = manifest("Service", "video-chat-service");
    expect(service.spec.ports.map((p: { targetPort: string }) => p.targetPort)).toEqual(["http"]);
    expect(service.spec.selector).toEqual(DEPLOYMENT.spec.selector.matchLabels);
  });

  test("the grace period covers the preStop pause and SHUTDOWN_GRACE_MS", () => {
    const pause = CONTAINER.lifecycle.preStop.sleep.seconds;
    expect(DEPLOYMENT.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(
      pause + Number(env.SHUTDOWN_GRACE_MS) / 1000,
    );
  });

  test("runs as the image's user on a read-only root filesystem, /data a volume of the pod", () => {
    const pod = DEPLOYMENT.spec.template.spec;
    const user = /^USER (\d+):(\d+)$/m.exec(CONTAINERFILE.slice(CONTAINERFILE.lastIndexOf("\nFROM ")));
    expect([pod.securityContext.runAsUser, pod.securityContext.runAsGroup]).toEqual([
      Number(user![1]),
      Number(user![2]),
    ]);
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(CONTAINER.securityContext.readOnlyRootFilesystem).toBe(true);
    const mount = CONTAINER.volumeMounts.find((m: { mountPath: string }) => m.mountPath === "/data");
    expect(pod.volumes.map((v: { name: string }) => v.name)).toContain(mount.name);
  });

  test("no Secret is shipped (no sample key to be accepted as-is): the pods wait for the operator's", () => {
    expect(MANIFESTS.filter((m) => m.kind === "Secret")).toEqual([]);
    const [from] = CONTAINER.envFrom;
    expect(from.secretRef.name).toBe("video-chat-service");
    expect(from.secretRef.optional ?? false).toBe(false);
    expect(secretNames()).toEqual(["API_KEYS", "LLM_API_KEY", "REDIS_PASSWORD"]);
    expect(read(DEPLOYMENT_PATH)).toContain('API_KEYS="$(openssl rand -hex 32)"');
  });

  test("REDIS_URL and REDIS_CACHE_URL name redis.yaml's Services; both ask for the Secret's REDIS_PASSWORD", () => {
    for (const [name, url] of [["redis", env.REDIS_URL], ["redis-cache", env.REDIS_CACHE_URL]]) {
      const service = manifest("Service", name);
      expect(new URL(url).port).toBe(String(service.spec.ports[0].port));
      expect(new URL(url).hostname).toBe(service.metadata.name);
      const server = manifest("Deployment", name).spec.template.spec.containers[0];
      const password = server.env.find((e: { name: string }) => e.name === "REDIS_PASSWORD");
      expect(password.valueFrom.secretKeyRef).toEqual({ name: "video-chat-service", key: "REDIS_PASSWORD" });
      expect(server.args.join(" ")).toContain("--requirepass $(REDIS_PASSWORD)");
    }
  });

  test("keys and usage are never evicted; only the caches' Redis evicts, with a maxmemory", () => {
    const args = (name: string) => manifest("Deployment", name).spec.template.spec.containers[0].args.join(" ");
    expect(args("redis")).toContain("--maxmemory-policy noeviction");
    expect(args("redis-cache")).toContain("--maxmemory-policy allkeys-lru");
    expect(args("redis-cache")).toMatch(/--maxmemory \d+mb/);
    // The state Redis is bounded too: past it, writes fail rather than evict.
    expect(args("redis")).toMatch(/--maxmemory \d+mb --maxmemory-policy noeviction/);
  });

  test("the state Redis keeps its data on a claimed volume, which survives a reschedule", () => {
    const redis = manifest("Deployment", "redis");
    const data = redis.spec.template.spec.volumes.find((v: { name: string }) => v.name === "data");
    expect(data.emptyDir).toBeUndefined();
    const claim = manifest("PersistentVolumeClaim", data.persistentVolumeClaim.claimName);
    expect(claim.spec.accessModes).toEqual(["ReadWriteOnce"]);
    // A ReadWriteOnce volume is let go by the old pod before the new one mounts it.
    expect(redis.spec.strategy.type).toBe("Recreate");
  });

  test("a NetworkPolicy admits only the service's pods to both Redis servers' port", () => {
    const policy = manifest("NetworkPolicy", "redis");
    expect(policy.spec.podSelector.matchExpressions).toEqual([
      { key: "app", operator: "In", values: ["redis", "redis-cache"] },
    ]);
    expect(policy.spec.policyTypes).toEqual(["Ingress"]);
    expect(policy.spec.ingress).toEqual([{
      from: [{ podSelector: { matchLabels: DEPLOYMENT.spec.selector.matchLabels } }],
      ports: [{ protocol: "TCP", port: manifest("Service", "redis").spec.ports[0].port }],
    }]);
  });
});
