import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import { beforeAll, describe, expect, it } from "vitest";
import { fieldProblems, schemaProblems } from "./kubernetes.ts";
import {
  chartDir,
  chartMetadata,
  defaultValues,
  findDocument,
  mergeValues,
  type Rendered,
  renderChart,
  renderHelpersAlone,
  templateFiles,
  type Values,
} from "./render.ts";

// The chart's checks, without Helm: no helm binary is installed here. What `helm lint` and
// `helm template` would say is worked out from the chart's files and Go's own template engine.

// biome-ignore lint/suspicious/noExplicitAny: rendered objects are read field by field in the assertions
type Json = Record<string, any>;

const schema = JSON.parse(readFileSync(path.join(chartDir, "values.schema.json"), "utf8")) as Json;
const ajv = new Ajv({ allErrors: true, strict: true });
const validateValues = ajv.compile(schema);

function schemaErrors(values: Values): string[] {
  return validateValues(values)
    ? []
    : (validateValues.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
}

// Made-up secrets, each distinct so that the test can tell where any of them ends up.
const secrets = {
  DATABASE_URL: "postgres://tarmac:pg-pass-7d1e@postgres.databases.svc:5432/tarmac",
  SECRET_KEY: "sk-for-tests-only-0123456789abcdef0123",
  S3_ACCESS_KEY_ID: "access-id-for-tests-4b2c",
  S3_SECRET_ACCESS_KEY: "secret-for-tests-9f3a",
  SMTP_PASSWORD: "smtp-pass-for-tests-51c0",
};

/** values.yaml plus what an install cannot do without. */
const required: Values = {
  env: {
    PUBLIC_URL: "https://tarmac.example.com",
    S3_BUCKET: "tarmac-builds",
    SMTP_HOST: "smtp.example.com",
  },
  secretEnv: secrets,
};

/** Ingress with TLS, autoscaling, a Secret of the operator's own and every pass-through value. */
const production: Values = {
  image: { digest: `sha256:${"ab".repeat(32)}` },
  imagePullSecrets: [{ name: "registry" }],
  env: {
    PUBLIC_URL: "https://builds.example.com",
    STORAGE_DRIVER: "gcs",
    GCS_BUCKET: "tarmac-builds",
    ADMIN_EMAILS: "ops@example.com",
    UPLOAD_MAX_BYTES: "17179869184",
  },
  existingSecret: "tarmac-env",
  udidSigning: { enabled: true, existingSecret: "tarmac-udid-signing" },
  extraEnv: [
    { name: "BUNDLETOOL_JAR", value: "/opt/bundletool/bundletool-all.jar" },
    { name: "AAB_KEYSTORE_PASSWORD", valueFrom: { secretKeyRef: { name: "aab-keystore", key: "password" } } },
  ],
  extraVolumes: [{ name: "bundletool", configMap: { name: "bundletool" } }],
  extraVolumeMounts: [{ name: "bundletool", mountPath: "/opt/bundletool", readOnly: true }],
  serviceAccount: {
    annotations: { "iam.gke.io/gcp-service-account": "tarmac@project.iam.gserviceaccount.com" },
  },
  ingress: {
    enabled: true,
    className: "nginx",
    annotations: {
      "nginx.ingress.kubernetes.io/proxy-body-size": "0",
      "nginx.ingress.kubernetes.io/proxy-request-buffering": "off",
    },
    hosts: [{ host: "builds.example.com", paths: [{ path: "/", pathType: "Prefix" }] }],
    tls: [{ secretName: "builds-example-com-tls", hosts: ["builds.example.com"] }],
  },
  web: {
    autoscaling: { enabled: true, minReplicas: 3, maxReplicas: 12, targetCPUUtilizationPercentage: 60 },
    podDisruptionBudget: { maxUnavailable: "25%" },
    podLabels: { team: "mobile" },
    podAnnotations: { "example.com/owner": "mobile" },
    nodeSelector: { "kubernetes.io/os": "linux" },
    tolerations: [{ key: "dedicated", operator: "Equal", value: "web", effect: "NoSchedule" }],
    affinity: {
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          {
            weight: 100,
            podAffinityTerm: {
              topologyKey: "kubernetes.io/hostname",
              labelSelector: { matchLabels: { "app.kubernetes.io/component": "web" } },
            },
          },
        ],
      },
    },
    topologySpreadConstraints: [
      {
        maxSkew: 1,
        topologyKey: "topology.kubernetes.io/zone",
        whenUnsatisfiable: "ScheduleAnyway",
        labelSelector: { matchLabels: { "app.kubernetes.io/component": "web" } },
      },
    ],
  },
  worker: { replicas: 2, tolerations: [{ key: "dedicated", operator: "Exists" }] },
};

/** No worker pods (the web pods run the jobs) and no metrics. */
const small: Values = mergeValues(required, {
  worker: { enabled: false },
  metrics: { enabled: false },
  web: { replicas: 1, podDisruptionBudget: { enabled: false } },
});

const valueSets: Record<string, Values> = { required, production, small };
const rendered: Record<string, Rendered> = {};
/** Unknown fields in the objects of all sets, each line prefixed with its set's name. */
let unknownFields: string[] = [];

beforeAll(async () => {
  for (const [name, overrides] of Object.entries(valueSets)) rendered[name] = await renderChart(overrides);
  // One type-checking program for every set: loading the types is most of its time.
  unknownFields = fieldProblems(
    Object.entries(rendered).flatMap(([name, set]) =>
      set.documents.map((document) => ({ ...document, file: `${name}: ${document.file}` })),
    ),
  );
});

function find(set: Rendered, kind: string, nameSuffix = ""): Json {
  return findDocument(set, kind, nameSuffix);
}

function allText(set: Rendered): string {
  return [...set.files.values()].join("\n");
}

function podSpec(deployment: Json): Json {
  return deployment.spec.template.spec;
}

function container(deployment: Json): Json {
  return podSpec(deployment).containers[0];
}

function envValue(deployment: Json, name: string): string | undefined {
  return (container(deployment).env as Json[]).find((entry) => entry.name === name)?.value;
}

function matches(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.entries(selector).every(([key, value]) => labels[key] === value);
}

describe("Chart.yaml (helm lint's checks of it)", () => {
  it("has the fields Helm requires, with valid values", () => {
    expect(chartMetadata.apiVersion).toBe("v2");
    expect(chartMetadata.name).toBe(path.basename(chartDir));
    expect(chartMetadata.version).toMatch(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/);
    expect(typeof chartMetadata.appVersion).toBe("string");
    expect(chartMetadata.type).toBe("application");
    expect(chartMetadata.kubeVersion).toMatch(/^>=\d+\.\d+\.\d+(-0)?$/);
    expect(chartMetadata.description).toBeTruthy();
  });

  it("keeps _helpers.tpl free of output: only its definitions count", async () => {
    expect((await renderHelpersAlone(defaultValues)).trim()).toBe("");
  });
});

describe("values.yaml and values.schema.json", () => {
  it("values.yaml is valid against the schema, and so is every value set rendered here", () => {
    expect(schemaErrors(defaultValues)).toEqual([]);
    for (const overrides of Object.values(valueSets)) {
      expect(schemaErrors(mergeValues(defaultValues, overrides))).toEqual([]);
    }
  });

  it("requires every key the templates read, so no one can remove one and render nothing", () => {
    // Wherever the schema closes an object and lists its required keys, values.yaml has exactly
    // those: the templates read them without a guard, which Go's strict mode (used here) turns
    // into an error. (Objects without a list, such as resources, pass through whole.)
    const walk = (node: Json, value: unknown, at: string) => {
      const resolved = node.$ref ? schema.definitions[node.$ref.split("/").pop()] : node;
      if (resolved.additionalProperties === false && resolved.required) {
        expect(Object.keys(value as Json).sort(), at).toEqual([...resolved.required].sort());
      }
      for (const [key, child] of Object.entries((resolved.properties ?? {}) as Json)) {
        const childValue = (value as Json)[key];
        if (typeof childValue === "object" && childValue !== null && !Array.isArray(childValue)) {
          walk(child, childValue, `${at}.${key}`);
        }
      }
    };
    walk(schema, defaultValues, "values");
  });

  it("refuses secrets and chart-managed variables in env, the local driver and typos", () => {
    const refused: Values[] = [
      { env: { DATABASE_URL: secrets.DATABASE_URL } },
      { env: { S3_SECRET_ACCESS_KEY: "x" } },
      { env: { ROLES: "web" } },
      { env: { STORAGE_DRIVER: "local" } },
      { env: { DATABASE_POOL_SIZE: 20 } },
      { secretEnv: { SECRET_KEY: "too-short" } },
      { secretEnv: { DATABASE_URL: "mysql://db/tarmac" } },
      { web: { shutdown: { timeoutMs: 120000 } } },
      { web: { podLabels: { "app.kubernetes.io/component": "worker" } } },
      { web: { replica: 3 } },
      { ingres: { enabled: true } },
    ];
    for (const overrides of refused) {
      expect(schemaErrors(mergeValues(defaultValues, overrides)), JSON.stringify(overrides)).not.toEqual([]);
    }
  });
});

describe("rendering (helm template)", () => {
  it("type-checks the objects against kubernetes-models' types (which load without error)", () => {
    const names = Object.keys(valueSets);
    expect(unknownFields.filter((line) => !names.some((name) => line.startsWith(`${name}: `)))).toEqual([]);
  });

  it("stops with the missing setting's name when values.yaml is used as it is", async () => {
    await expect(renderChart({})).rejects.toThrow(/set env\.PUBLIC_URL/);
    await expect(renderChart({ env: required.env })).rejects.toThrow(/set secretEnv\.DATABASE_URL/);
    await expect(
      renderChart({ env: required.env, secretEnv: { ...secrets, S3_SECRET_ACCESS_KEY: "" } }),
    ).rejects.toThrow(/S3_SECRET_ACCESS_KEY/);
    await expect(
      renderChart({ ...required, env: { ...(required.env as Json), S3_BUCKET: "" } }),
    ).rejects.toThrow(/set env\.S3_BUCKET/);
    await expect(renderChart(mergeValues(required, { udidSigning: { enabled: true } }))).rejects.toThrow(
      /udidSigning\.existingSecret/,
    );
  });

  for (const name of Object.keys(valueSets)) {
    describe(`value set "${name}"`, () => {
      it("prints no <no value> (a nil Helm would print as nothing) in any file, NOTES.txt included", () => {
        const set = rendered[name] as Rendered;
        expect(set.files.size).toBe(templateFiles.length);
        expect(allText(set)).not.toContain("<no value>");
        expect(set.notes).toContain("Tarmac");
      });

      it("renders objects valid for the Kubernetes API, with no field it does not know", () => {
        const set = rendered[name] as Rendered;
        expect(schemaProblems(set.documents)).toEqual([]);
        expect(unknownFields.filter((line) => line.startsWith(`${name}: `))).toEqual([]);
        for (const { object } of set.documents) {
          expect(object.metadata.name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
          expect(object.metadata.name.length).toBeLessThanOrEqual(63);
          expect(object.metadata.namespace).toBe("apps");
        }
      });

      it("runs web and worker as non-root on a read-only root filesystem, with /tmp on an emptyDir", () => {
        const set = rendered[name] as Rendered;
        for (const { object } of set.documents.filter((document) => document.object.kind === "Deployment")) {
          const spec = podSpec(object);
          expect(spec.securityContext.runAsNonRoot).toBe(true);
          expect(spec.securityContext.runAsUser).toBeGreaterThan(0);
          expect(spec.automountServiceAccountToken).toBe(false);
          const main = container(object);
          expect(main.securityContext).toMatchObject({
            readOnlyRootFilesystem: true,
            allowPrivilegeEscalation: false,
            capabilities: { drop: ["ALL"] },
          });
          const tmp = (main.volumeMounts as Json[]).find((mount) => mount.mountPath === "/tmp");
          expect(
            (spec.volumes as Json[]).find((volume) => volume.name === tmp?.name)?.emptyDir,
          ).toBeDefined();
          const dataDir = envValue(object, "DATA_DIR");
          const data = (main.volumeMounts as Json[]).find((mount) => mount.mountPath === dataDir);
          expect(
            (spec.volumes as Json[]).find((volume) => volume.name === data?.name)?.emptyDir,
          ).toBeDefined();
        }
      });

      it("keeps every secret value out of everything but the Secret", () => {
        const set = rendered[name] as Rendered;
        for (const { file, object } of set.documents) {
          if (object.kind === "Secret") continue;
          const text = JSON.stringify(object);
          for (const [key, value] of Object.entries(secrets)) {
            expect(text, `${file} holds ${key}`).not.toContain(value);
          }
        }
        expect(set.notes).not.toMatch(new RegExp(Object.values(secrets).join("|")));
      });
    });
  }
});

describe("what the pods do", () => {
  it("web pods run ROLES=web with probes on the health routes; worker pods run ROLES=worker", () => {
    const set = rendered.required as Rendered;
    const web = find(set, "Deployment", "-web");
    expect(envValue(web, "ROLES")).toBe("web");
    const main = container(web);
    const http = (main.ports as Json[]).find((port) => port.name === "http");
    expect(String(http?.containerPort)).toBe(envValue(web, "PORT"));
    expect(main.startupProbe.httpGet).toEqual({ path: "/api/health/", port: "http" });
    expect(main.livenessProbe.httpGet).toEqual({ path: "/api/health/", port: "http" });
    expect(main.readinessProbe.httpGet).toEqual({ path: "/api/health/ready/", port: "http" });
    expect(envValue(web, "HOST")).toBe("0.0.0.0");

    const worker = find(set, "Deployment", "-worker");
    expect(envValue(worker, "ROLES")).toBe("worker");
    expect(container(worker).ports.map((port: Json) => port.name)).toEqual(["metrics"]);
    expect(container(worker).startupProbe.tcpSocket).toEqual({ port: "metrics" });
    expect(container(worker).readinessProbe).toBeUndefined();
  });

  it("without worker pods the web pods run the jobs too; without metrics nothing listens for them", () => {
    const set = rendered.small as Rendered;
    expect(set.documents.filter(({ object }) => object.kind === "Deployment")).toHaveLength(1);
    const web = find(set, "Deployment", "-web");
    expect(envValue(web, "ROLES")).toBe("web,worker");
    expect(envValue(web, "METRICS_PORT")).toBe("0");
    expect(container(web).ports.map((port: Json) => port.name)).toEqual(["http"]);
    expect(web.spec.template.metadata.annotations["prometheus.io/scrape"]).toBeUndefined();
    expect(find(set, "Service").spec.ports.map((port: Json) => port.name)).toEqual(["http"]);
    expect(set.documents.some(({ object }) => object.kind === "PodDisruptionBudget")).toBe(false);
  });

  it("serves metrics on every pod's address, where the annotations and the Service say", () => {
    const set = rendered.required as Rendered;
    for (const suffix of ["-web", "-worker"]) {
      const deployment = find(set, "Deployment", suffix);
      expect(envValue(deployment, "METRICS_HOST")).toBe("0.0.0.0");
      const port = envValue(deployment, "METRICS_PORT");
      const declared = (container(deployment).ports as Json[]).find((entry) => entry.name === "metrics");
      expect(String(declared?.containerPort)).toBe(port);
      expect(deployment.spec.template.metadata.annotations).toMatchObject({
        "prometheus.io/scrape": "true",
        "prometheus.io/port": port,
        "prometheus.io/path": "/metrics",
      });
    }
    const service = find(set, "Service");
    const web = find(set, "Deployment", "-web");
    for (const port of service.spec.ports as Json[]) {
      expect(container(web).ports.map((entry: Json) => entry.name)).toContain(port.targetPort);
    }
  });

  it("gives a stopping web pod time to drain and finish before the kubelet kills it", () => {
    const set = rendered.required as Rendered;
    const web = find(set, "Deployment", "-web");
    const drain = Number(envValue(web, "SHUTDOWN_DRAIN_MS"));
    const timeout = Number(envValue(web, "SHUTDOWN_TIMEOUT_MS"));
    expect(drain).toBeGreaterThan(0);
    expect(podSpec(web).terminationGracePeriodSeconds).toBeGreaterThanOrEqual((drain + timeout) / 1000 + 5);
    // Capacity never drops during a rollout: a new pod is ready before an old one drains.
    expect(web.spec.strategy.rollingUpdate.maxUnavailable).toBe(0);

    const worker = find(set, "Deployment", "-worker");
    const workerTimeout = Number(envValue(worker, "SHUTDOWN_TIMEOUT_MS"));
    expect(podSpec(worker).terminationGracePeriodSeconds).toBeGreaterThanOrEqual(workerTimeout / 1000 + 5);
  });

  it("reads non-secret settings from the ConfigMap and secrets from the Secret, which holds them all", async () => {
    const set = rendered.required as Rendered;
    const configMap = find(set, "ConfigMap");
    const secret = find(set, "Secret");
    expect(configMap.data).toMatchObject({
      PUBLIC_URL: "https://tarmac.example.com",
      STORAGE_DRIVER: "s3",
      S3_BUCKET: "tarmac-builds",
      TRUST_PROXY: "true",
    });
    // Empty values stay out: the server's defaults apply.
    expect(configMap.data.S3_ENDPOINT).toBeUndefined();
    for (const key of Object.keys(secrets)) expect(configMap.data[key]).toBeUndefined();
    expect(secret.stringData).toEqual(secrets);
    for (const suffix of ["-web", "-worker"]) {
      expect(container(find(set, "Deployment", suffix)).envFrom).toEqual([
        { configMapRef: { name: configMap.metadata.name } },
        { secretRef: { name: secret.metadata.name } },
      ]);
    }
    // A change of env changes the pod template, so the pods roll.
    const other = await renderChart(mergeValues(required, { env: { LOG_LEVEL: "debug" } }));
    const before = find(set, "Deployment", "-web").spec.template.metadata.annotations;
    const after = find(other, "Deployment", "-web").spec.template.metadata.annotations;
    expect(after["tarmac/env"]).not.toBe(before["tarmac/env"]);
  });
});

describe("web pods behind the Service, the Ingress, the budget and the autoscaler", () => {
  it("the Service and the disruption budget select the web pods and no worker pod", () => {
    const set = rendered.required as Rendered;
    const webLabels = find(set, "Deployment", "-web").spec.template.metadata.labels;
    const workerLabels = find(set, "Deployment", "-worker").spec.template.metadata.labels;
    const selectors = [
      find(set, "Service").spec.selector,
      find(set, "PodDisruptionBudget").spec.selector.matchLabels,
    ];
    for (const selector of selectors) {
      expect(matches(selector, webLabels)).toBe(true);
      expect(matches(selector, workerLabels)).toBe(false);
    }
    expect(find(set, "PodDisruptionBudget").spec.maxUnavailable).toBe(1);
  });

  it("with an existing Secret the chart creates none and both Deployments read the operator's", () => {
    const set = rendered.production as Rendered;
    expect(set.documents.some(({ object }) => object.kind === "Secret")).toBe(false);
    for (const suffix of ["-web", "-worker"]) {
      const deployment = find(set, "Deployment", suffix);
      expect(container(deployment).envFrom[1]).toEqual({ secretRef: { name: "tarmac-env" } });
      expect(container(deployment).image).toBe(`ghcr.io/tarmac/tarmac@sha256:${"ab".repeat(32)}`);
      expect(envValue(deployment, "UDID_SIGNING_CERT")).toBe("/etc/tarmac/udid-signing/cert.pem");
    }
  });

  it("routes the TLS host to the Service's http port", () => {
    const set = rendered.production as Rendered;
    const ingress = find(set, "Ingress");
    const service = find(set, "Service");
    expect(ingress.spec.ingressClassName).toBe("nginx");
    expect(ingress.spec.tls).toEqual([
      { hosts: ["builds.example.com"], secretName: "builds-example-com-tls" },
    ]);
    const backend = ingress.spec.rules[0].http.paths[0].backend.service;
    expect(backend.name).toBe(service.metadata.name);
    expect(service.spec.ports.map((port: Json) => port.name)).toContain(backend.port.name);
    expect(ingress.metadata.annotations["nginx.ingress.kubernetes.io/proxy-body-size"]).toBe("0");
  });

  it("autoscales the web Deployment, which then leaves its replica count to the autoscaler", () => {
    const set = rendered.production as Rendered;
    const hpa = find(set, "HorizontalPodAutoscaler");
    const web = find(set, "Deployment", "-web");
    expect(hpa.spec.scaleTargetRef).toEqual({
      apiVersion: "apps/v1",
      kind: "Deployment",
      name: web.metadata.name,
    });
    expect(hpa.spec).toMatchObject({ minReplicas: 3, maxReplicas: 12 });
    expect(web.spec.replicas).toBeUndefined();
    // CPU utilisation is measured against the request.
    expect(container(web).resources.requests.cpu).toBeTruthy();
    expect(find(set, "Deployment", "-worker").spec.replicas).toBe(2);
  });

  it("passes scheduling settings and extra env and volumes through as given", () => {
    const set = rendered.production as Rendered;
    const web = find(set, "Deployment", "-web");
    const given = production.web as Json;
    expect(podSpec(web).affinity).toEqual(given.affinity);
    expect(podSpec(web).tolerations).toEqual(given.tolerations);
    expect(podSpec(web).topologySpreadConstraints).toEqual(given.topologySpreadConstraints);
    expect(podSpec(web).nodeSelector).toEqual(given.nodeSelector);
    expect(podSpec(web).imagePullSecrets).toEqual([{ name: "registry" }]);
    expect(web.spec.template.metadata.labels.team).toBe("mobile");
    expect(container(web).env).toEqual(expect.arrayContaining(production.extraEnv as Json[]));
    expect(container(web).volumeMounts).toEqual(
      expect.arrayContaining(production.extraVolumeMounts as Json[]),
    );
    expect(podSpec(web).volumes).toEqual(expect.arrayContaining(production.extraVolumes as Json[]));
    // A value past a million stays a string, as written (Go prints large floats in e-notation).
    expect(find(set, "ConfigMap").data.UPLOAD_MAX_BYTES).toBe("17179869184");
  });

  it("names resources after the release alone when the release is called tarmac", async () => {
    const set = await renderChart(required, { releaseName: "tarmac" });
    expect(find(set, "Service").metadata.name).toBe("tarmac");
    expect(find(set, "Deployment", "-web").metadata.name).toBe("tarmac-web");
  });
});
