import { MantineProvider } from "@mantine/core";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { theme } from "./theme.ts";
import { UploadProgress } from "./upload-progress.tsx";

function show(props: Partial<Parameters<typeof UploadProgress>[0]> = {}) {
  return render(
    <MantineProvider theme={theme}>
      <UploadProgress progress={42} fileName="rocket.apk" status="Uploading… 42%" {...props} />
    </MantineProvider>,
  );
}

describe("UploadProgress", () => {
  it("shows the progress, the file name, the status and an error", () => {
    show({ error: "Application Error" });
    expect(screen.getByRole("progressbar").getAttribute("aria-valuenow")).toBe("42");
    expect(screen.getByText("rocket.apk")).toBeTruthy();
    expect(screen.getByText("Uploading… 42%")).toBeTruthy();
    expect(screen.getByRole("alert").textContent).toBe("Application Error");
  });

  it("emits the open-add and cancel events and shows no buttons without listeners", async () => {
    const onOpenAdd = vi.fn();
    const onCancel = vi.fn();
    const user = userEvent.setup();
    const view = show({ onOpenAdd, onCancel, floating: true });
    await user.click(screen.getByRole("button", { name: "Show" }));
    await user.click(screen.getByRole("button", { name: "Cancel upload" }));
    expect(onOpenAdd).toHaveBeenCalledTimes(1);
    expect(onCancel).toHaveBeenCalledTimes(1);
    view.unmount();
    show();
    expect(screen.queryByRole("button")).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
  });
});
