// A QR code drawn as SVG in the browser, so a page can show one for any URL without a server trip.
import { create } from "qrcode";
import { useMemo } from "react";

const QUIET_ZONE = 4;

/** One SVG path of every dark module; a single element keeps large codes cheap to render. */
export function qrPath(value: string): { size: number; path: string } {
  const { modules } = create(value, { errorCorrectionLevel: "M" });
  let path = "";
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (modules.get(row, col)) path += `M${col + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`;
    }
  }
  return { size: modules.size + QUIET_ZONE * 2, path };
}

export function QrCode({ value, label, size = 176 }: { value: string; label: string; size?: number }) {
  const code = useMemo(() => qrPath(value), [value]);
  return (
    <svg
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${code.size} ${code.size}`}
      shapeRendering="crispEdges"
      data-value={value}
    >
      <rect width={code.size} height={code.size} fill="#fff" />
      <path d={code.path} fill="#000" />
    </svg>
  );
}
