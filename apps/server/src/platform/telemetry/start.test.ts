import { describe, expect, it } from "vitest";
import { otlpProtocol, TracingConfigError, tracingWanted } from "./start.ts";

describe("when tracing starts", () => {
  it("needs an OTLP endpoint, and OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none turn it off", () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "  " })).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" })).toBe(
      true,
    );
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" };
    expect(tracingWanted({ ...endpoint, OTEL_SDK_DISABLED: "true" })).toBe(false);
    expect(tracingWanted({ ...endpoint, OTEL_SDK_DISABLED: "false" })).toBe(true);
    expect(tracingWanted({ ...endpoint, OTEL_TRACES_EXPORTER: "none" })).toBe(false);
  });

  it("sends OTLP over HTTP in protobuf (the default) or JSON, and names the variable of any other", () => {
    expect(otlpProtocol({})).toBe("http/protobuf");
    expect(otlpProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" })).toBe("http/json");
    expect(
      otlpProtocol({
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/protobuf",
      }),
    ).toBe("http/protobuf");
    expect(() => otlpProtocol({ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "grpc" })).toThrow(
      new TracingConfigError(
        "Invalid configuration: OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: grpc is not supported; use http/protobuf or http/json",
      ),
    );
  });
});
