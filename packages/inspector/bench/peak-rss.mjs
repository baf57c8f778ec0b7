// Loaded with --import into a measured process: reports the process's peak resident memory on exit.
process.on("exit", () => {
  process.stderr.write(`\npeak-rss-kb ${process.resourceUsage().maxRSS}\n`);
});
