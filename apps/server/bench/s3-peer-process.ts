// s3rver in a process of its own, so the bench measures Tarmac and not a peer sharing its event
// loop. Prints the port, then serves until killed. Usage: s3-peer-process.ts DIRECTORY BUCKET
import { startS3Peer } from "../test/helpers/s3-peer.ts";

const [directory, bucket] = process.argv.slice(2);
if (!directory || !bucket) throw new Error("usage: s3-peer-process.ts DIRECTORY BUCKET");
const peer = await startS3Peer([bucket], directory);
console.log(new URL(peer.endpoint).port);
