import net from "node:net";

/**
 * A TCP proxy to the server that drops both sides of the connection once `cutAt` bytes went
 * from client to server, once; afterwards it passes everything.
 */
export async function cuttingProxy(target: number, cutAt: number) {
  let forwarded = 0;
  let cuts = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target, "127.0.0.1");
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => undefined);
      socket.on("close", () => sockets.delete(socket));
    }
    upstream.pipe(client);
    client.on("data", (chunk: Buffer) => {
      if (cuts === 0 && forwarded + chunk.length >= cutAt) {
        cuts += 1;
        upstream.write(chunk.subarray(0, cutAt - forwarded), () => {
          upstream.destroy();
          client.destroy();
        });
        forwarded = cutAt;
        return;
      }
      forwarded += chunk.length;
      if (!upstream.write(chunk)) {
        client.pause();
        upstream.once("drain", () => client.resume());
      }
    });
    client.on("end", () => upstream.end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cuts: () => cuts,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
