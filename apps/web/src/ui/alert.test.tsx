import { MantineProvider } from "@mantine/core";
import { act, fireEvent, render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Alert } from "./alert.tsx";
import { AlertsProvider, useAlerts } from "./alerts-provider.tsx";

function renderWithMantine(node: ReactNode) {
  return render(<MantineProvider>{node}</MantineProvider>);
}

describe("Alert", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it("is a warning by default and closes itself after 3000 ms", () => {
    const onClose = vi.fn();
    renderWithMantine(<Alert message="Storage almost full" onClose={onClose} />);
    const alert = screen.getByRole("alert");
    expect(alert.getAttribute("data-alert-type")).toBe("warning");
    act(() => {
      vi.advanceTimersByTime(2999);
    });
    expect(screen.queryByRole("alert")).not.toBeNull();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.queryByRole("alert")).toBeNull();
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("stays when the timeout is 0", () => {
    renderWithMantine(<Alert type="error" message="Upload failed" timeout={0} />);
    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    expect(screen.getByRole("alert").getAttribute("data-alert-type")).toBe("error");
  });

  it("closes from its labelled close button", () => {
    const onClose = vi.fn();
    renderWithMantine(<Alert type="info" message="Saved" timeout={0} onClose={onClose} />);
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(screen.queryByRole("alert")).toBeNull();
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("has no close button when not dismissible", () => {
    renderWithMantine(<Alert message="Read only" dismissible={false} timeout={0} />);
    expect(screen.queryByRole("button", { name: "Close" })).toBeNull();
  });
});

function ShowButton() {
  const alerts = useAlerts();
  return (
    <button
      type="button"
      onClick={() => alerts.show({ type: "success", message: "File uploaded successfully" })}
    >
      show
    </button>
  );
}

describe("useAlerts", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it("stacks alerts and removes each after its timeout", () => {
    renderWithMantine(
      <AlertsProvider>
        <ShowButton />
      </AlertsProvider>,
    );
    fireEvent.click(screen.getByRole("button", { name: "show" }));
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    fireEvent.click(screen.getByRole("button", { name: "show" }));
    expect(screen.getAllByRole("alert").map((alert) => alert.getAttribute("data-alert-type"))).toEqual([
      "success",
      "success",
    ]);
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(screen.getAllByRole("alert")).toHaveLength(1);
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.queryAllByRole("alert")).toHaveLength(0);
  });
});
