export interface Progress {
  update(sent: number, total: number): void;
  done(): void;
}

const megabytes = (bytes: number) => (bytes / 1_000_000).toFixed(1);

/**
 * A bar redrawn in place on a terminal; elsewhere (CI logs, pipes) a line every 10 %, since a
 * log keeps every redraw.
 */
export function progressOn(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): Progress {
  const live = stream.isTTY === true && !env.CI;
  let lastTenth = -1;
  let drawn = false;
  return {
    update(sent, total) {
      const share = total > 0 ? sent / total : 1;
      if (live) {
        const width = 30;
        const filled = Math.round(share * width);
        stream.write(
          `\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${Math.floor(share * 100)}% ${megabytes(sent)}/${megabytes(total)} MB`,
        );
        drawn = true;
        return;
      }
      const tenth = Math.floor(share * 10);
      if (tenth > lastTenth) {
        lastTenth = tenth;
        stream.write(`uploaded ${tenth * 10}% (${megabytes(sent)} of ${megabytes(total)} MB)\n`);
      }
    },
    done() {
      if (drawn) stream.write("\n");
      drawn = false;
    },
  };
}
