#!/usr/bin/env node
// verify.mjs: read a sensim recording (MCAP, ROS 2 profile) back with
// libraries that share no code with sensim, check it, and print a JSON
// summary per topic.
//
//   node verify.mjs FILE [--expect JSON] [--compare OUT] [--summary-only]
//
// FILE is read twice: with @mcap/core's McapIndexedReader (summary, chunk
// and message indexes: what a viewer that seeks uses) and with its
// McapStreamReader (every record in file order, chunk CRCs, the footer);
// zstd chunks are decompressed by fzstd. Each schema's ros2msg text is
// parsed by @foxglove/rosmsg and compared with the ROS 2 definitions of
// @foxglove/rosmsg-msgs-common; every message is decoded from CDR by
// @foxglove/rosmsg2-serialization. The checks are listed in README.md.
//
// --expect JSON (inline, or a file name; several merge) holds expectations:
//   {"profile": "ros2", "compression": "zstd", "lidar_time": "start"|"end",
//    "tf_rate": 50, "topics": {"/imu/imu": 160, ...}, "bodies": ["cart"],
//    "point_labels": [1, 2] (the class ids a point may carry),
//    "sensors": {"cam": {"lag": 0.03, "topics": ["/cam/depth"]}, ...},
//    "cameras": {"cam": {"hfov_deg": 90, "distortion_model": "plumb_bob",
//                        "d": [k1, k2, p1, p2, k3]}},
//    "covariances": {"/imu/imu": {"angular_velocity": v, "linear_acceleration": v},
//                    "/mag_1/mag": {"magnetic_field": v},
//                    "/cart/odom": {"pose": v, "twist": v}} (diagonal variances:
//                    a number, or one per axis),
//    "frames": {"map": "map", "odom": "odom"}, "odom_drift": "cart" (the
//    body whose odometry drifts),
//    "files": ["camera_info.yaml", "poses.txt"]}  (required beside each
//    camera / sensor of OUT with --compare)
// --compare OUT compares the messages with the files the same run wrote
// into OUT (sensim run --out OUT): per sensor folder the CSV rows, PNG and
// PCD files, camera_info.yaml and poses.txt.
//
// Exit status 0 when every check passed, 1 when one failed (each failure is
// a line on stderr: "FAIL topic: what: expected ..., found ..."), 2 on bad
// usage. The JSON summary goes to stdout either way.

import { readFileSync } from "node:fs";
import { McapIndexedReader, McapStreamReader } from "@mcap/core";
import { decompress as zstdDecompress } from "fzstd";
import { parse as parseMsgDef } from "@foxglove/rosmsg";
import { MessageReader } from "@foxglove/rosmsg2-serialization";
import { ros2jazzy, ros2humble } from "@foxglove/rosmsg-msgs-common";
import { crc32 } from "@foxglove/crc";

// ---- command line --------------------------------------------------------------

function usage(msg) {
  if (msg) process.stderr.write(`verify.mjs: ${msg}\n`);
  process.stderr.write("usage: node verify.mjs FILE [--expect JSON|FILE] [--compare OUT] [--summary-only]\n");
  process.exit(2);
}

const args = process.argv.slice(2);
let file = null;
let expect = {};
let compareDir = null;
let summaryOnly = false;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === "--expect") {
    const v = args[++i];
    if (v === undefined) usage("--expect needs a value");
    try {
      // Several --expect merge, later keys winning.
      Object.assign(expect, JSON.parse(v.trimStart().startsWith("{") ? v : readFileSync(v, "utf8")));
    } catch (e) {
      usage(`--expect: ${e.message}`);
    }
  } else if (a === "--compare") {
    compareDir = args[++i];
    if (compareDir === undefined) usage("--compare needs a folder");
  } else if (a === "--summary-only") {
    summaryOnly = true;
  } else if (a === "-h" || a === "--help") {
    usage();
  } else if (a.startsWith("-")) {
    usage(`unknown option ${a}`);
  } else if (file === null) {
    file = a;
  } else {
    usage(`unexpected argument ${a}`);
  }
}
if (file === null) usage("no FILE");

// ---- reporting -------------------------------------------------------------------

const failures = [];
const warnings = [];
const perKey = new Map();
const MAX_PER_KEY = 12;

// One failed check. `where` is a topic (or "file"), `what` the field.
function fail(where, what, expected, found) {
  const key = `${where}|${what}`;
  const n = (perKey.get(key) ?? 0) + 1;
  perKey.set(key, n);
  const line = expected === undefined
    ? `${where}: ${what}`
    : `${where}: ${what}: expected ${fmt(expected)}, found ${fmt(found)}`;
  if (n <= MAX_PER_KEY) failures.push(line);
  else if (n === MAX_PER_KEY + 1) failures.push(`${where}: ${what}: (further failures of this check not listed)`);
}
function warn(where, what) {
  warnings.push(`${where}: ${what}`);
}
function fmt(v) {
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") return Number.isNaN(v) ? "NaN" : String(v);
  if (typeof v === "string") return JSON.stringify(v);
  try {
    return JSON.stringify(v, (_, x) => (typeof x === "bigint" ? x.toString() : x));
  } catch {
    return String(v);
  }
}
function check(cond, where, what, expected, found) {
  if (!cond) fail(where, what, expected, found);
  return cond;
}
// Equal numbers, NaN equal to NaN (a CSV "nan" against a CDR NaN).
function same(a, b) {
  return a === b || (Number.isNaN(a) && Number.isNaN(b));
}

// ---- helpers: time, quaternions -------------------------------------------------

const NS = 1000000000n;
function stampNs(st) {
  return BigInt(st.sec) * NS + BigInt(st.nanosec);
}
function nsToS(ns) {
  return Number(ns / NS) + Number(ns % NS) / 1e9;
}
// |stamp - t| in ns, for a stamp that should be t rounded to the nearest ns.
function stampErrNs(ns, t) {
  const whole = Math.floor(t);
  const fracNs = (t - whole) * 1e9;
  return Math.abs(Number(ns - BigInt(whole) * NS) - fracNs);
}

const qmul = (a, b) => [
  a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
  a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
  a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
  a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
]; // [x, y, z, w]
const qconj = (q) => [-q[0], -q[1], -q[2], q[3]];
function qrot(q, v) {
  const r = qmul(qmul(q, [v[0], v[1], v[2], 0]), qconj(q));
  return [r[0], r[1], r[2]];
}
function compose(a, b) { // pose a * pose b, poses {t: [3], q: [x y z w]}
  const r = qrot(a.q, b.t);
  return { t: [a.t[0] + r[0], a.t[1] + r[1], a.t[2] + r[2]], q: qmul(a.q, b.q) };
}
function qangle(a, b) { // rotation angle between two orientations, rad (unnormalised inputs)
  const r = qmul(qconj(a), b);
  return 2 * Math.atan2(Math.hypot(r[0], r[1], r[2]), Math.abs(r[3]));
}
function qnorm(q) {
  return Math.hypot(q[0], q[1], q[2], q[3]);
}
function slerp(a, b, u) {
  let d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  let bb = b;
  if (d < 0) { d = -d; bb = b.map((x) => -x); }
  if (d > 0.9995) {
    const r = a.map((x, i) => x + u * (bb[i] - x));
    const n = qnorm(r);
    return r.map((x) => x / n);
  }
  const th = Math.acos(d);
  const s = Math.sin(th);
  const wa = Math.sin((1 - u) * th) / s;
  const wb = Math.sin(u * th) / s;
  return a.map((x, i) => wa * x + wb * bb[i]);
}
const tfPose = (tr) => ({
  t: [tr.translation.x, tr.translation.y, tr.translation.z],
  q: [tr.rotation.x, tr.rotation.y, tr.rotation.z, tr.rotation.w],
});

// ---- the ROS 2 definitions a recording's schemas must match ---------------------

const REFERENCE = { ...ros2humble, ...ros2jazzy };
const normType = (t) => {
  if (t === "builtin_interfaces/Time" || t === "builtin_interfaces/msg/Time") return "time";
  if (t === "builtin_interfaces/Duration" || t === "builtin_interfaces/msg/Duration") return "duration";
  return t.replace("/msg/", "/");
};
function fieldSig(defs) {
  return defs
    .filter((f) => !f.isConstant)
    .map((f) => `${normType(f.type)} ${f.name}${f.isArray ? `[${f.arrayLength ?? ""}]` : ""}`)
    .join("; ");
}
// sensim's own messages (no ROS 2 package defines them): the fields of
// the radar's raw FMCW frames as docs/radar.md ("Recordings") lists them.
const FMCW_SIG = "uint32 tx; uint32 rx; string window; float64 carrier_frequency; float64 sample_rate; " +
  "float64 chirp_slope; float64 chirp_interval; float64 range_bin; float64 velocity_bin; float64 noise_power; " +
  "float64 gain; float64 radar_constant; float32 data[]";
const SENSIM_MSGS = {
  "sensim_msgs/RadarCube": `std_msgs/Header header; uint32 chirps; uint32 channels; uint32 samples; ${FMCW_SIG}`,
  "sensim_msgs/RadarRangeDoppler": `std_msgs/Header header; uint32 channels; uint32 doppler_bins; uint32 range_bins; ${FMCW_SIG}`,
};
function checkSchemaDefs(schemaName, defs) {
  const where = `schema ${schemaName}`;
  const byName = new Map();
  byName.set(normType(schemaName), defs[0]);
  for (const d of defs.slice(1)) byName.set(normType(d.name), d);
  for (const [name, def] of byName) {
    if (name === "time" || name === "duration") continue;
    if (SENSIM_MSGS[name]) {
      check(fieldSig(def.definitions) === SENSIM_MSGS[name], where, `fields of ${name}`, SENSIM_MSGS[name], fieldSig(def.definitions));
      continue;
    }
    const ref = REFERENCE[name];
    if (!ref) {
      fail(where, `${name} is not a ROS 2 message known to @foxglove/rosmsg-msgs-common`);
      continue;
    }
    const got = fieldSig(def.definitions);
    const want = fieldSig(ref.definitions);
    check(got === want, where, `fields of ${name}`, want, got);
    // Every complex field's type must be defined in the schema text too.
    for (const f of def.definitions) {
      if (f.isComplex && !byName.has(normType(f.type)))
        fail(where, `${name}.${f.name}: type ${f.type} is not defined in the schema text`);
    }
  }
}

// ---- reading the file --------------------------------------------------------------

const bytes = new Uint8Array(readFileSync(file));
const decompressHandlers = {
  zstd: (buf, size) => {
    const out = zstdDecompress(buf, new Uint8Array(Number(size)));
    if (out.length !== Number(size))
      throw new Error(`zstd chunk decompressed to ${out.length} bytes, the chunk says ${size}`);
    return out;
  },
};

// Stream pass: every record in file order, fed in pieces of 64 KiB so the
// reader's incremental parsing is exercised.
const stream = {
  records: [],
  messages: [],
  schemas: new Map(),
  channels: new Map(),
  chunks: [],
  messageIndexes: [],
  chunkIndexes: [],
  statistics: null,
  dataEnd: null,
  footer: null,
  header: null,
};
try {
  const reader = new McapStreamReader({ includeChunks: true, decompressHandlers, validateCrcs: true });
  for (let off = 0; off < bytes.length; off += 65536) {
    reader.append(bytes.subarray(off, Math.min(bytes.length, off + 65536)));
    for (let rec; (rec = reader.nextRecord());) {
      stream.records.push(rec.type);
      switch (rec.type) {
        case "Header": stream.header = rec; break;
        case "Schema": stream.schemas.set(rec.id, rec); break;
        case "Channel": stream.channels.set(rec.id, rec); break;
        case "Message": stream.messages.push(rec); break;
        case "Chunk": stream.chunks.push(rec); break;
        case "MessageIndex": stream.messageIndexes.push(rec); break;
        case "ChunkIndex": stream.chunkIndexes.push(rec); break;
        case "Statistics": stream.statistics = rec; break;
        case "DataEnd": stream.dataEnd = rec; break;
        case "Footer": stream.footer = rec; break;
        default: break;
      }
    }
  }
  check(reader.done(), "file", "stream reader: complete file ending in a footer and magic", true, reader.done());
} catch (e) {
  fail("file", `stream reader: ${e.message}`);
}

// Indexed pass: the summary, then messages through the chunk and message
// indexes, as a viewer that seeks reads them.
let indexed = null;
const indexedMessages = [];
try {
  indexed = await McapIndexedReader.Initialize({
    readable: {
      size: async () => BigInt(bytes.length),
      read: async (offset, size) => {
        if (offset + size > BigInt(bytes.length))
          throw new Error(`read past the end: ${offset}+${size} > ${bytes.length}`);
        return bytes.subarray(Number(offset), Number(offset + size));
      },
    },
    decompressHandlers,
  });
  for await (const m of indexed.readMessages({ validateCrcs: true })) indexedMessages.push(m);
} catch (e) {
  fail("file", `indexed reader: ${e.message}`);
}

// ---- file-level checks ------------------------------------------------------------------

const header = indexed?.header ?? stream.header;
const expectProfile = expect.profile ?? "ros2";
check(header?.profile === expectProfile, "file", "header.profile", expectProfile, header?.profile);
if (!header?.library) warn("file", "header.library is empty");

const schemas = indexed ? indexed.schemasById : stream.schemas;
const channels = indexed ? indexed.channelsById : stream.channels;
for (const s of schemas.values()) {
  check(s.encoding === "ros2msg", `schema ${s.name}`, "encoding", "ros2msg", s.encoding);
  check(/^[A-Za-z0-9_]+\/msg\/[A-Za-z0-9_]+$/.test(s.name), `schema ${s.name}`, "name of the form pkg/msg/Type", "pkg/msg/Type", s.name);
}
for (const c of channels.values()) {
  check(c.messageEncoding === "cdr", c.topic, "channel message encoding", "cdr", c.messageEncoding);
  check(schemas.has(c.schemaId), c.topic, "channel's schema id is defined", true, c.schemaId);
}
const topics = [...channels.values()].map((c) => c.topic);
check(new Set(topics).size === topics.length, "file", "one channel per topic", topics.length, new Set(topics).size);

if (indexed) {
  check(indexed.chunkIndexes.length > 0, "file", "chunk indexes in the summary", ">= 1", indexed.chunkIndexes.length);
  check(indexed.statistics !== undefined, "file", "statistics record in the summary", "present", "absent");
  check(indexed.footer.summaryCrc !== 0, "file", "footer summary CRC written (nonzero)", "nonzero", 0);
  // Every chunk index points at a Chunk record that has message indexes for
  // the channels in it.
  const expectCompression = expect.compression ?? "zstd";
  for (const ci of indexed.chunkIndexes) {
    check(ci.compression === expectCompression, "file", `chunk at ${ci.chunkStartOffset}: compression`, expectCompression, ci.compression);
    check(bytes[Number(ci.chunkStartOffset)] === 0x06, "file", `chunk index offset ${ci.chunkStartOffset} points at a Chunk record (opcode 0x06)`, 6, bytes[Number(ci.chunkStartOffset)]);
    check(ci.messageIndexOffsets.size > 0, "file", `chunk at ${ci.chunkStartOffset}: message index offsets`, ">= 1", ci.messageIndexOffsets.size);
    for (const [, off] of ci.messageIndexOffsets)
      check(bytes[Number(off)] === 0x07, "file", `message index offset ${off} points at a MessageIndex record (opcode 0x07)`, 7, bytes[Number(off)]);
  }
  // Time ordering of chunks: chunk indexes in file order with their time ranges.
  for (let i = 1; i < indexed.chunkIndexes.length; i++) {
    const a = indexed.chunkIndexes[i - 1], b = indexed.chunkIndexes[i];
    check(a.chunkStartOffset < b.chunkStartOffset, "file", "chunk indexes in file order", "increasing offsets", `${a.chunkStartOffset}, ${b.chunkStartOffset}`);
    check(a.messageEndTime <= b.messageStartTime, "file", "chunks in log-time order (a chunk ends before the next starts)", `${a.messageEndTime} <= ${b.messageStartTime}`, "overlap");
  }
}

// Data section CRC, which neither reader validates.
{
  const footerStart = bytes.length - 8 - (1 + 8 + 20);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  check(bytes[footerStart] === 0x02, "file", `Footer record at ${footerStart}`, "opcode 0x02", bytes[footerStart]);
  const summaryStart = Number(dv.getBigUint64(footerStart + 9, true));
  const dataEndOffset = (summaryStart !== 0 ? summaryStart : footerStart) - (1 + 8 + 4);
  if (check(bytes[dataEndOffset] === 0x0f, "file", `DataEnd record at ${dataEndOffset}`, "opcode 0x0f", bytes[dataEndOffset])) {
    const want = dv.getUint32(dataEndOffset + 9, true);
    if (check(want !== 0, "file", "data section CRC written (nonzero)", "nonzero", 0)) {
      const got = crc32(bytes.subarray(0, dataEndOffset));
      check(got === want, "file", "data section CRC", want, got);
    }
  }
}

// Stream: message count, chunk CRCs written, statistics agree.
for (const ch of stream.chunks) check(ch.uncompressedCrc !== 0, "file", `chunk CRC written (nonzero) for the chunk starting at log time ${ch.messageStartTime}`, "nonzero", 0);
if (indexed) {
  check(indexedMessages.length === stream.messages.length, "file", "messages through the indexes vs in the stream", stream.messages.length, indexedMessages.length);
}
const stats = indexed?.statistics ?? stream.statistics;
if (stats) {
  check(stats.messageCount === BigInt(stream.messages.length), "file", "statistics.messageCount", stream.messages.length, stats.messageCount);
  check(stats.chunkCount === stream.chunks.length, "file", "statistics.chunkCount", stream.chunks.length, stats.chunkCount);
  check(stats.schemaCount === schemas.size, "file", "statistics.schemaCount", schemas.size, stats.schemaCount);
  check(stats.channelCount === channels.size, "file", "statistics.channelCount", channels.size, stats.channelCount);
  if (stream.messages.length) {
    let lo = stream.messages[0].logTime, hi = lo;
    for (const m of stream.messages) { if (m.logTime < lo) lo = m.logTime; if (m.logTime > hi) hi = m.logTime; }
    check(stats.messageStartTime === lo, "file", "statistics.messageStartTime", lo, stats.messageStartTime);
    check(stats.messageEndTime === hi, "file", "statistics.messageEndTime", hi, stats.messageEndTime);
  }
}

// Message indexes (as streamed) cover every message once.
{
  let n = 0;
  for (const mi of stream.messageIndexes) n += mi.records.length;
  check(n === stream.messages.length, "file", "message index entries", stream.messages.length, n);
}

// ---- decode every message --------------------------------------------------------------

const readers = new Map(); // schema id -> MessageReader
for (const s of schemas.values()) {
  try {
    // rosbag2 names dependencies "MSG: pkg/msg/Type" while fields say
    // "pkg/Type" (docs/message_definition_encoding.md of rosbag2); both
    // spellings are valid, @foxglove/rosmsg matches names literally.
    const text = new TextDecoder().decode(s.data).replace(/^MSG: ([A-Za-z0-9_]+)\/msg\/([A-Za-z0-9_]+)/gm, "MSG: $1/$2");
    const defs = parseMsgDef(text, { ros2: true });
    checkSchemaDefs(s.name, defs);
    readers.set(s.id, new MessageReader(defs));
  } catch (e) {
    fail(`schema ${s.name}`, `ros2msg text does not parse: ${e.message}`);
  }
}

const byTopic = new Map(); // topic -> {schema, msgs: [{log, pub, seq, msg}]}
for (const c of channels.values()) byTopic.set(c.topic, { channel: c, schema: schemas.get(c.schemaId)?.name, msgs: [] });

let prevLog = -1n;
for (const m of stream.messages) {
  const c = channels.get(m.channelId);
  if (!c) { fail("file", `message on undeclared channel ${m.channelId}`); continue; }
  const t = byTopic.get(c.topic);
  if (m.logTime < prevLog) {
    fail(c.topic, "log times non-decreasing in file order", `>= ${prevLog}`, m.logTime);
  }
  prevLog = m.logTime;
  const reader = readers.get(c.schemaId);
  if (!reader) continue;
  let msg;
  try {
    msg = reader.readMessage(m.data);
  } catch (e) {
    fail(c.topic, `CDR decode of message at log time ${m.logTime}: ${e.message}`);
    continue;
  }
  // CDR allows trailing padding to the 4-byte alignment rmw produces, no more.
  const used = reader.lastReadByteLength();
  if (m.data.length - used > 3)
    fail(c.topic, "message length vs what its schema decodes", used, m.data.length);
  check(m.publishTime === m.logTime || m.publishTime === 0n || m.publishTime <= m.logTime, c.topic, "publish time <= log time", `<= ${m.logTime}`, m.publishTime);
  t.msgs.push({ log: m.logTime, pub: m.publishTime, seq: m.sequence, msg });
}

// Seeking: a query from the middle of the recording gives exactly the
// messages at or after that time; a query per topic gives that topic's.
if (indexed && stream.messages.length > 2) {
  const sorted = stream.messages.map((m) => m.logTime).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const mid = sorted[Math.floor(sorted.length / 2)];
  const want = sorted.filter((x) => x >= mid).length;
  let got = 0;
  let early = 0;
  try {
    for await (const m of indexed.readMessages({ startTime: mid })) { got++; if (m.logTime < mid) early++; }
  } catch (e) {
    fail("file", `indexed reader seek to ${mid}: ${e.message}`);
  }
  check(got === want && early === 0, "file", `messages from log time ${mid} on through the indexes`, want, `${got} (${early} before it)`);
  // Per topic: the message index entries and the statistics count every
  // message; a query by topic (each decompresses every chunk that holds the
  // topic, so only for the two rarest topics) gives exactly them.
  const indexCount = new Map();
  for (const mi of stream.messageIndexes) indexCount.set(mi.channelId, (indexCount.get(mi.channelId) ?? 0) + mi.records.length);
  const rare = [...byTopic].sort((a, b) => a[1].msgs.length - b[1].msgs.length).slice(0, 2).map(([topic]) => topic);
  for (const [topic, t] of byTopic) {
    const n = stream.messages.filter((m) => m.channelId === t.channel.id).length;
    check((indexCount.get(t.channel.id) ?? 0) === n, topic, "message index entries of the topic", n, indexCount.get(t.channel.id) ?? 0);
    const sc = stats?.channelMessageCounts.get(t.channel.id);
    check(sc === BigInt(n), topic, "statistics.channelMessageCounts", n, sc);
    if (!rare.includes(topic)) continue;
    let q = 0;
    try {
      for await (const m of indexed.readMessages({ topics: [topic] })) { if (m.channelId === t.channel.id) q++; else fail(topic, "query by topic gave another topic's message"); }
    } catch (e) {
      fail(topic, `indexed reader by topic: ${e.message}`);
    }
    check(q === n, topic, "messages through the indexes by topic", n, q);
  }
}

// ---- per message type checks ---------------------------------------------------------------

const TYPE = {
  image: "sensor_msgs/msg/Image",
  info: "sensor_msgs/msg/CameraInfo",
  cloud: "sensor_msgs/msg/PointCloud2",
  fix: "sensor_msgs/msg/NavSatFix",
  imu: "sensor_msgs/msg/Imu",
  mag: "sensor_msgs/msg/MagneticField",
  odom: "nav_msgs/msg/Odometry",
  tf: "tf2_msgs/msg/TFMessage",
  radar_cube: "sensim_msgs/msg/RadarCube",
  radar_rd: "sensim_msgs/msg/RadarRangeDoppler",
};
const IMAGE_BPP = { rgb8: 3, rgba8: 4, bgr8: 3, bgra8: 4, mono8: 1, mono16: 2, rgb16: 6, "32FC1": 4, "32FC3": 12, "16UC1": 2, "32SC1": 4 };
const PF = { INT8: 1, UINT8: 2, INT16: 3, UINT16: 4, INT32: 5, UINT32: 6, FLOAT32: 7, FLOAT64: 8 };
const PF_SIZE = { 1: 1, 2: 1, 3: 2, 4: 2, 5: 4, 6: 4, 7: 4, 8: 8 };
const CLOUD_FIELDS = { x: PF.FLOAT32, y: PF.FLOAT32, z: PF.FLOAT32, intensity: PF.FLOAT32, ring: PF.UINT16, time: PF.FLOAT32, return: PF.UINT8, label: PF.UINT32, instance: PF.UINT32 };

// Sensor and frame a sensor topic belongs to: /<name>/<leaf>.
function topicParts(topic) {
  const m = /^\/([^/]+)\/([^/]+)$/.exec(topic);
  return m ? { name: m[1], leaf: m[2] } : null;
}
const IMAGE_LEAF_ENCODING = { depth: "32FC1", class_ids: "16UC1", instance_ids: "32SC1" };

// A row-major n x n covariance that is diagonal with the expected
// variances (a number for every axis, or one per axis), to 1e-9 relative.
function checkDiagCov(topic, what, cov, n, want) {
  const w = Array.isArray(want) ? want : Array(n).fill(want);
  const c = Array.from(cov);
  let ok = c.length === n * n;
  for (let i = 0; ok && i < n; i++)
    for (let j = 0; j < n; j++) {
      const v = c[i * n + j], e = i === j ? w[i] : 0;
      if (!(Math.abs(v - e) <= 1e-9 * Math.abs(e))) ok = false;
    }
  check(ok, topic, `${what} (the configured noise's variance on the diagonal)`, w, c);
}

function checkStamp(topic, e) {
  const h = e.msg.header;
  if (!h) return;
  check(h.stamp.nanosec < 1e9, topic, "header.stamp.nanosec < 1e9", "< 1000000000", h.stamp.nanosec);
  const ns = stampNs(h.stamp);
  check(ns <= e.log, topic, "header.stamp <= log time", `<= ${e.log}`, ns);
}

// Read a PointCloud2's points as arrays per field.
function cloudPoints(msg) {
  const dv = new DataView(msg.data.buffer, msg.data.byteOffset, msg.data.byteLength);
  const n = msg.width * msg.height;
  const out = {};
  for (const f of msg.fields) {
    const arr = new Array(n);
    const get = {
      1: (o) => dv.getInt8(o), 2: (o) => dv.getUint8(o), 3: (o) => dv.getInt16(o, !msg.is_bigendian),
      4: (o) => dv.getUint16(o, !msg.is_bigendian), 5: (o) => dv.getInt32(o, !msg.is_bigendian),
      6: (o) => dv.getUint32(o, !msg.is_bigendian), 7: (o) => dv.getFloat32(o, !msg.is_bigendian),
      8: (o) => dv.getFloat64(o, !msg.is_bigendian),
    }[f.datatype];
    if (!get) continue;
    for (let r = 0; r < msg.height; r++)
      for (let c = 0; c < msg.width; c++) arr[r * msg.width + c] = get(r * msg.row_step + c * msg.point_step + f.offset);
    out[f.name] = arr;
  }
  return out;
}

const summary = { file, profile: header?.profile, library: header?.library, messages: stream.messages.length, chunks: stream.chunks.length, compression: [...new Set(stream.chunks.map((c) => c.compression))], topics: {} };
const tfStatic = []; // {parent, child, pose}
const tfDynamic = new Map(); // child -> [{ns, parent, pose}]
// REP 105: /tf holds map -> odom and odom -> each body (--expect "frames"
// renames them).
const MAP = expect.frames?.map ?? "map", ODOM = expect.frames?.odom ?? "odom";
const lidarTimes = new Map(); // topic -> {min, max}

for (const [topic, t] of byTopic) {
  const parts = topicParts(topic);
  const type = t.schema;
  const msgs = t.msgs;
  const s = { schema: type, count: msgs.length };
  summary.topics[topic] = s;
  if (msgs.length === 0) { warn(topic, "channel without messages"); continue; }
  const stamps = msgs.map((e) => (e.msg.header ? stampNs(e.msg.header.stamp) : undefined));
  if (stamps[0] !== undefined) {
    s.first_stamp = nsToS(stamps[0]);
    s.last_stamp = nsToS(stamps[stamps.length - 1]);
  }
  s.first_log = nsToS(msgs[0].log);
  s.last_log = nsToS(msgs[msgs.length - 1].log);
  for (const e of msgs) checkStamp(topic, e);
  // A sensor topic's stamps increase (one frame per capture).
  for (let i = 1; i < stamps.length; i++)
    if (stamps[i] !== undefined && topic !== "/tf_static")
      check(stamps[i] > stamps[i - 1], topic, `header.stamp increasing (message ${i})`, `> ${stamps[i - 1]}`, stamps[i]);

  const frameWant = (() => {
    if (!parts) return undefined;
    // A camera's images are in its optical frame; an image a lidar makes
    // (birdseye) has no camera_info and stays in the sensor's frame.
    if (type === TYPE.info || (type === TYPE.image && byTopic.has(`/${parts.name}/camera_info`))) return `${parts.name}_optical`;
    if (type === TYPE.odom) return ODOM;
    if (type === TYPE.tf) return undefined;
    return parts.name;
  })();
  if (frameWant !== undefined)
    for (const e of msgs) check(e.msg.header.frame_id === frameWant, topic, "header.frame_id", frameWant, e.msg.header.frame_id);

  if (type === TYPE.image) {
    const encs = new Set();
    for (const e of msgs) {
      const m = e.msg;
      encs.add(m.encoding);
      const bpp = IMAGE_BPP[m.encoding];
      check(bpp !== undefined, topic, "encoding", Object.keys(IMAGE_BPP).join("|"), m.encoding);
      const leafEnc = parts && IMAGE_LEAF_ENCODING[parts.leaf];
      if (leafEnc) check(m.encoding === leafEnc, topic, "encoding", leafEnc, m.encoding);
      check(m.is_bigendian === 0, topic, "is_bigendian", 0, m.is_bigendian);
      check(m.width > 0 && m.height > 0, topic, "width and height > 0", "> 0", `${m.width}x${m.height}`);
      if (bpp) check(m.step === m.width * bpp, topic, `step (width * ${bpp} bytes of ${m.encoding})`, m.width * bpp, m.step);
      check(m.step * m.height === m.data.length, topic, "step * height == data length", m.step * m.height, m.data.length);
    }
    // Depth images (REP 118, as depth_image_proc reads them): a float
    // depth is a distance > 0, +Inf where nothing was hit, NaN where
    // invalid; never 0, which depth_image_proc makes a point at the
    // camera's origin. The /depth planes, and image_raw of the cameras
    // --expect lists with "depth": true.
    const isDepth = parts && (parts.leaf === "depth" || (parts.leaf === "image_raw" && expect.cameras?.[parts.name]?.depth));
    if (isDepth) {
      let zeros = 0, inf = 0, nan = 0, n = 0;
      for (const e of msgs) {
        const m = e.msg;
        if (m.encoding !== "32FC1") continue;
        const dv = new DataView(m.data.buffer, m.data.byteOffset, m.data.byteLength);
        for (let k = 0; k + 4 <= m.data.length; k += 4) {
          const d = dv.getFloat32(k, true);
          n++;
          if (d === Infinity) inf++;
          else if (Number.isNaN(d)) nan++;
          else if (!(d > 0)) zeros++;
        }
      }
      check(zeros === 0, topic, "32FC1 depth pixels <= 0 (REP 118: +Inf no return, NaN invalid)", 0, zeros);
      s.depth_no_return = inf; s.depth_invalid = nan; s.depth_pixels = n;
    }
    const m0 = msgs[0].msg;
    s.width = m0.width; s.height = m0.height; s.encoding = [...encs].join(",");
  } else if (type === TYPE.info) {
    const m0 = msgs[0].msg;
    s.width = m0.width; s.height = m0.height; s.distortion_model = m0.distortion_model;
    s.k = Array.from(m0.k); s.d = Array.from(m0.d); s.p = Array.from(m0.p);
    for (const e of msgs) {
      const m = e.msg;
      const dm = m.distortion_model;
      check(["plumb_bob", "equidistant", "rational_polynomial", "fov", "division"].includes(dm), topic, "distortion_model", "plumb_bob|equidistant|rational_polynomial|fov|division", dm);
      // sensim's division lens (docs/recording.md): D = [lambda].
      if (dm === "division" && check(m.d.length === 1, topic, "d: [lambda] for division", 1, m.d.length) && e === msgs[0])
        warn(topic, "distortion_model division: image_geometry does not know it (camera_info_fit.yaml has a ROS model)");
      if (dm === "plumb_bob") check(m.d.length === 5, topic, "d: 5 coefficients for plumb_bob", 5, m.d.length);
      // sensim's FOV lens (docs/recording.md): D = [hfov / 2], a model ROS's tools do not know.
      if (dm === "fov" && check(m.d.length === 1, topic, "d: [hfov / 2] for fov", 1, m.d.length) && e === msgs[0])
        warn(topic, "distortion_model fov: image_geometry and camera_calibration_parsers do not know it");
      if (dm === "equidistant") check(m.d.length === 4, topic, "d: 4 coefficients for equidistant", 4, m.d.length);
      check(m.k[0] > 0 && m.k[4] > 0 && m.k[8] === 1 && m.k[1] === 0 && m.k[3] === 0 && m.k[6] === 0 && m.k[7] === 0, topic, "k = [fx 0 cx; 0 fy cy; 0 0 1]", "camera matrix", Array.from(m.k));
      check(m.p[0] === m.k[0] && m.p[5] === m.k[4] && m.p[2] === m.k[2] && m.p[6] === m.k[5] && m.p[10] === 1 && m.p[3] === 0 && m.p[7] === 0 && m.p[11] === 0, topic, "p = [K | 0] of a monocular camera", "[fx 0 cx 0; 0 fy cy 0; 0 0 1 0]", Array.from(m.p));
      check([1, 0, 0, 0, 1, 0, 0, 0, 1].every((v, i) => m.r[i] === v), topic, "r identity (monocular)", [1, 0, 0, 0, 1, 0, 0, 0, 1], Array.from(m.r));
    }
    // One camera_info per image, with the image's stamp and size.
    // The camera's images: image_raw, or class_ids for a chain ending in labels.
    const img = parts && (byTopic.get(`/${parts.name}/image_raw`) ?? byTopic.get(`/${parts.name}/class_ids`));
    if (check(img !== undefined, topic, "an image_raw (or class_ids) topic beside camera_info", `/${parts?.name}/image_raw`, "none")) {
      check(img.msgs.length === msgs.length, topic, "one camera_info per image", img.msgs.length, msgs.length);
      const n = Math.min(img.msgs.length, msgs.length);
      for (let i = 0; i < n; i++) {
        const a = stampNs(img.msgs[i].msg.header.stamp), b = stampNs(msgs[i].msg.header.stamp);
        check(a === b, topic, `stamp of camera_info ${i} vs its image`, a, b);
        check(img.msgs[i].msg.width === msgs[i].msg.width && img.msgs[i].msg.height === msgs[i].msg.height, topic, `size of camera_info ${i} vs its image`, `${img.msgs[i].msg.width}x${img.msgs[i].msg.height}`, `${msgs[i].msg.width}x${msgs[i].msg.height}`);
      }
    }
  } else if (type === TYPE.cloud) {
    const m0 = msgs[0].msg;
    s.fields = m0.fields.map((f) => `${f.name}:${f.offset}:${f.datatype}`);
    s.point_step = m0.point_step; s.height0 = m0.height; s.width0 = m0.width;
    s.points = msgs.reduce((a, e) => a + e.msg.width * e.msg.height, 0);
    let tmin = Infinity, tmax = -Infinity;
    const labels = new Set(), classOf = new Map(); // labels seen; instance -> label
    for (const e of msgs) {
      const m = e.msg;
      check(m.is_bigendian === false, topic, "is_bigendian", false, m.is_bigendian);
      check(m.row_step === m.width * m.point_step, topic, "row_step == width * point_step", m.width * m.point_step, m.row_step);
      check(m.row_step * m.height === m.data.length, topic, "row_step * height == data length", m.row_step * m.height, m.data.length);
      const names = m.fields.map((f) => f.name);
      for (const [name, dt] of Object.entries(CLOUD_FIELDS)) {
        const f = m.fields.find((x) => x.name === name);
        if (!check(f !== undefined, topic, `field ${name}`, "present", names.join(","))) continue;
        check(f.datatype === dt, topic, `field ${name} datatype`, dt, f.datatype);
        check(f.count === 1, topic, `field ${name} count`, 1, f.count);
      }
      // Velodyne driver layout: x y z intensity ring time in this order, packed.
      const want = ["x:0", "y:4", "z:8", "intensity:12", "ring:16", "time:18"];
      const got = m.fields.slice(0, 6).map((f) => `${f.name}:${f.offset}`);
      check(want.join(",") === got.join(","), topic, "fields and offsets of the Velodyne layout", want.join(","), got.join(","));
      // The semantic ids after them (docs/recording.md): label (class id), instance.
      const ids = m.fields.filter((f) => f.name === "label" || f.name === "instance").map((f) => `${f.name}:${f.offset}`);
      check(ids.join(",") === "label:24,instance:28", topic, "offsets of the semantic id fields", "label:24,instance:28", ids.join(","));
      const spans = m.fields.map((f) => [f.offset, f.offset + (PF_SIZE[f.datatype] ?? 0) * f.count, f.name]).sort((a, b) => a[0] - b[0]);
      for (let i = 0; i < spans.length; i++) {
        check(spans[i][1] <= m.point_step, topic, `field ${spans[i][2]} inside point_step`, `<= ${m.point_step}`, spans[i][1]);
        if (i) check(spans[i - 1][1] <= spans[i][0], topic, `fields ${spans[i - 1][2]} and ${spans[i][2]} do not overlap`, `${spans[i - 1][1]} <= ${spans[i][0]}`, "overlap");
      }
      for (const f of m.fields)
        if (!(f.name in CLOUD_FIELDS))
          check(/class|instance|label/.test(f.name) && [PF.UINT16, PF.UINT32, PF.INT32].includes(f.datatype), topic, `extra field ${f.name}`, "class or instance ids as uint16/uint32", `${f.name}:${f.datatype}`);
      if (!m.fields.every((f) => f.name in CLOUD_FIELDS || PF_SIZE[f.datatype])) continue;
      const p = cloudPoints(m);
      let nan = false;
      for (let i = 0; i < (p.time?.length ?? 0); i++) {
        if (Number.isNaN(p.x[i]) || Number.isNaN(p.y[i]) || Number.isNaN(p.z[i])) nan = true;
        if (!Number.isNaN(p.time[i])) { tmin = Math.min(tmin, p.time[i]); tmax = Math.max(tmax, p.time[i]); }
      }
      if (nan) check(m.is_dense === false, topic, "is_dense false for a cloud with NaN points", false, m.is_dense);
      // Semantic ids: a missing (NaN) point names nothing; a point names a
      // body, whose class is one of point_labels (--expect) and the same
      // for every point of one instance.
      if (p.label && p.instance)
        for (let i = 0; i < p.label.length; i++) {
          const missing = Number.isNaN(p.x[i]) || Number.isNaN(p.y[i]) || Number.isNaN(p.z[i]);
          if (missing) {
            if (!check(p.label[i] === 0 && p.instance[i] === 0, topic, `ids of missing point ${i}`, "label 0, instance 0", `${p.label[i]}, ${p.instance[i]}`)) break;
            continue;
          }
          labels.add(p.label[i]);
          if (!check(p.label[i] <= 0xffff, topic, `label of point ${i} (a 16-bit class id)`, "<= 65535", p.label[i])) break;
          if (!check(p.instance[i] !== 0, topic, `instance of point ${i} (every body has one)`, "> 0", 0)) break;
          if (expect.point_labels && !check(expect.point_labels.includes(p.label[i]), topic, `label of point ${i}`, `one of ${expect.point_labels.join(" ")}`, p.label[i])) break;
          const was = classOf.get(p.instance[i]);
          if (was === undefined) classOf.set(p.instance[i], p.label[i]);
          else if (!check(was === p.label[i], topic, `label of instance ${p.instance[i]} (point ${i})`, was, p.label[i])) break;
        }
      if (m.height === 1) check(!nan, topic, "an unorganised cloud (height 1) has no NaN points", "none", "NaN points");
    }
    s.time_min = tmin; s.time_max = tmax;
    s.labels = [...labels].sort((a, b) => a - b); s.instances = classOf.size;
    lidarTimes.set(topic, { min: tmin, max: tmax });
    if (expect.lidar_time === "start") {
      check(tmin >= -1e-6, topic, "point time from the scan start (>= 0)", ">= 0", tmin);
      if (tmin < 0 && tmin >= -1e-6) warn(topic, `point time from the scan start down to ${tmin} s (float rounding of time_offset + window?): drivers publish >= 0`);
    }
    if (expect.lidar_time === "end")
      check(tmax <= 0, topic, "point time relative to the capture (<= 0)", "<= 0", tmax);
  } else if (type === TYPE.radar_cube || type === TYPE.radar_rd) {
    // Dimensions in the payload's order; one bin of range is c f_s / (2 S N)
    // (TI SWRA553 eq. 11): the header must be one a reader can use.
    const cube = type === TYPE.radar_cube;
    for (const e of msgs) {
      const m = e.msg;
      const dims = cube ? [m.chirps, m.channels, m.samples] : [m.channels, m.doppler_bins, m.range_bins];
      const n = dims[0] * dims[1] * dims[2];
      check(m.channels === m.tx * m.rx, topic, "channels == tx * rx", m.tx * m.rx, m.channels);
      check(m.data.length === 2 * n, topic, "data length (2 floats per complex sample)", 2 * n, m.data.length);
      check(["rect", "hann", "hamming", "blackman"].includes(m.window), topic, "window", "rect|hann|hamming|blackman", m.window);
      const rb = 299792458 * m.sample_rate / (2 * m.chirp_slope * dims[2]);
      check(Math.abs(rb - m.range_bin) <= 1e-9 * rb, topic, "range_bin == c f_s / (2 S N)", rb, m.range_bin);
      check(m.data.every(Number.isFinite), topic, "finite samples", "finite", "NaN or infinite");
      check(m.noise_power > 0, topic, "noise_power > 0", "> 0", m.noise_power);
    }
    s.dims = cube ? [msgs[0].msg.chirps, msgs[0].msg.channels, msgs[0].msg.samples]
                  : [msgs[0].msg.channels, msgs[0].msg.doppler_bins, msgs[0].msg.range_bins];
  } else if (type === TYPE.fix) {
    let nofix = 0;
    for (const e of msgs) {
      const m = e.msg;
      const cov = Array.from(m.position_covariance);
      if (m.status.status >= 0) {
        check([1, 2, 3].includes(m.position_covariance_type), topic, "position_covariance_type of a fix (APPROXIMATED, DIAGONAL_KNOWN or KNOWN)", "1|2|3", m.position_covariance_type);
        if (m.position_covariance_type === 2)
          check([1, 2, 3, 5, 6, 7].every((i) => cov[i] === 0), topic, "off-diagonal covariance 0 with DIAGONAL_KNOWN", 0, cov);
        check(cov[0] >= 0 && cov[4] >= 0 && cov[8] >= 0, topic, "covariance diagonal >= 0", ">= 0", cov);
        check(cov[1] === cov[3] && cov[2] === cov[6] && cov[5] === cov[7], topic, "covariance symmetric", "symmetric", cov);
        check(m.status.service !== 0, topic, "status.service (a GNSS system)", "nonzero", m.status.service);
        check(Math.abs(m.latitude) <= 90 && Math.abs(m.longitude) <= 180, topic, "latitude/longitude in range", "|lat| <= 90, |lon| <= 180", [m.latitude, m.longitude]);
      } else {
        nofix++;
        check(m.status.status === -1, topic, "status.status of a message without a fix", -1, m.status.status);
        check(m.position_covariance_type === 0, topic, "position_covariance_type without a fix (UNKNOWN)", 0, m.position_covariance_type);
      }
    }
    const m0 = msgs[0].msg;
    s.latitude = m0.latitude; s.longitude = m0.longitude; s.altitude = m0.altitude;
    s.covariance_type = m0.position_covariance_type; s.no_fix = nofix;
  } else if (type === TYPE.imu) {
    for (const e of msgs) {
      const m = e.msg;
      check(m.orientation_covariance[0] === -1, topic, "orientation_covariance[0] (orientation unknown)", -1, m.orientation_covariance[0]);
      check(m.angular_velocity_covariance[0] > 0 && m.linear_acceleration_covariance[0] > 0, topic, "rate and acceleration covariance[0] > 0 (known: robot_localization refuses all-zero ones)", "> 0", [m.angular_velocity_covariance[0], m.linear_acceleration_covariance[0]]);
      const want = expect.covariances?.[topic];
      if (want) {
        checkDiagCov(topic, "angular_velocity_covariance", m.angular_velocity_covariance, 3, want.angular_velocity);
        checkDiagCov(topic, "linear_acceleration_covariance", m.linear_acceleration_covariance, 3, want.linear_acceleration);
      }
    }
    const m0 = msgs[0].msg;
    s.linear_acceleration = [m0.linear_acceleration.x, m0.linear_acceleration.y, m0.linear_acceleration.z];
    s.angular_velocity = [m0.angular_velocity.x, m0.angular_velocity.y, m0.angular_velocity.z];
  } else if (type === TYPE.mag) {
    const m0 = msgs[0].msg;
    s.magnetic_field = [m0.magnetic_field.x, m0.magnetic_field.y, m0.magnetic_field.z];
    for (const e of msgs) {
      const b = e.msg.magnetic_field;
      const n = Math.hypot(b.x, b.y, b.z);
      check(n > 1e-6 && n < 1e-3, topic, "|magnetic_field| in tesla (Earth's field is ~2e-5..7e-5 T)", "1e-6 .. 1e-3", n);
      const want = expect.covariances?.[topic];
      if (want) checkDiagCov(topic, "magnetic_field_covariance", e.msg.magnetic_field_covariance, 3, want.magnetic_field);
    }
  } else if (type === TYPE.odom) {
    const body = parts?.name;
    for (const e of msgs) {
      const m = e.msg;
      check(m.child_frame_id === body, topic, "child_frame_id", body, m.child_frame_id);
      const q = m.pose.pose.orientation;
      check(Math.abs(qnorm([q.x, q.y, q.z, q.w]) - 1) < 1e-6, topic, "pose orientation is a unit quaternion", 1, qnorm([q.x, q.y, q.z, q.w]));
      const want = expect.covariances?.[topic];
      if (want) {
        checkDiagCov(topic, "pose.covariance", m.pose.covariance, 6, want.pose);
        checkDiagCov(topic, "twist.covariance", m.twist.covariance, 6, want.twist);
      }
    }
    const p = msgs[0].msg.pose.pose.position;
    s.first_position = [p.x, p.y, p.z];
  } else if (type === TYPE.tf) {
    const children = new Set();
    for (const e of msgs) {
      check(e.msg.transforms.length > 0, topic, "transforms in a TFMessage", ">= 1", 0);
      for (const tr of e.msg.transforms) {
        checkStamp(topic, { msg: tr, log: e.log });
        const pose = tfPose(tr.transform);
        check(Math.abs(qnorm(pose.q) - 1) < 1e-6, topic, `rotation of ${tr.child_frame_id} is a unit quaternion`, 1, qnorm(pose.q));
        check(tr.child_frame_id !== "" && tr.header.frame_id !== "", topic, "frame ids non-empty", "names", `${tr.header.frame_id} -> ${tr.child_frame_id}`);
        children.add(`${tr.header.frame_id}->${tr.child_frame_id}`);
        if (topic === "/tf_static") {
          tfStatic.push({ parent: tr.header.frame_id, child: tr.child_frame_id, pose });
        } else {
          const parentWant = tr.child_frame_id === ODOM ? MAP : ODOM;
          check(tr.header.frame_id === parentWant, topic, `parent of ${tr.child_frame_id} (REP 105: ${MAP} -> ${ODOM} -> bodies)`, parentWant, tr.header.frame_id);
          if (!tfDynamic.has(tr.child_frame_id)) tfDynamic.set(tr.child_frame_id, []);
          tfDynamic.get(tr.child_frame_id).push({ ns: stampNs(tr.header.stamp), parent: tr.header.frame_id, pose });
        }
      }
    }
    s.transforms = [...children];
  } else {
    warn(topic, `schema ${type} not checked`);
  }
}

// ---- frames: /tf_static and /tf ---------------------------------------------------------

const staticByChild = new Map();
for (const e of tfStatic) {
  if (staticByChild.has(e.child)) {
    const o = staticByChild.get(e.child);
    check(o.parent === e.parent && o.pose.t.every((v, i) => v === e.pose.t[i]) && o.pose.q.every((v, i) => v === e.pose.q[i]), "/tf_static", `${e.child} given twice differently`, o, e);
  }
  staticByChild.set(e.child, e);
}
// tf2's static broadcaster republishes every static transform in each
// message, as a latched (transient local, depth 1) /tf_static keeps only the
// last one for a late subscriber: the last message should hold all mounts.
{
  const st = byTopic.get("/tf_static");
  if (st && st.msgs.length > 1) {
    const last = new Set(st.msgs[st.msgs.length - 1].msg.transforms.map((tr) => tr.child_frame_id));
    const missing = [...staticByChild.keys()].filter((c) => !last.has(c));
    if (missing.length)
      warn("/tf_static", `${st.msgs.length} messages, the last without ${missing.join(", ")}: a late subscriber of a replay (latched, depth 1) sees only the last; tf2's StaticTransformBroadcaster sends all static transforms each time`);
  }
}
// The optical frame of a camera: z forward (sensor x), x right (-y), y down (-z).
const OPTICAL_Q = [-0.5, 0.5, -0.5, 0.5];
const sensorNames = new Set();
const cameraNames = new Set();
for (const [topic, t] of byTopic) {
  const p = topicParts(topic);
  if (!p || t.schema === TYPE.odom) continue;
  sensorNames.add(p.name);
  if (t.schema === TYPE.info) cameraNames.add(p.name);
}
check(tfDynamic.has(ODOM) || tfDynamic.size === 0, "/tf", `${MAP} -> ${ODOM} (REP 105)`, "present", "absent");
const bodyNames = new Set([...tfDynamic.keys()].filter((f) => f !== ODOM));
for (const body of bodyNames) {
  const odom = byTopic.get(`/${body}/odom`);
  check(odom !== undefined && odom.schema === TYPE.odom, "/tf", `odometry of body ${body}`, `/${body}/odom (nav_msgs/msg/Odometry)`, odom?.schema ?? "none");
  check(!sensorNames.has(body), "/tf", `body ${body} and a sensor share a frame name`, "distinct", body);
}
for (const [topic, t] of byTopic)
  if (t.schema === TYPE.odom) {
    const b = topicParts(topic)?.name;
    check(bodyNames.has(b), topic, "odometry of a body published on /tf", `map -> ${b} on /tf`, "absent");
  }
for (const b of expect.bodies ?? [])
  check(bodyNames.has(b), "/tf", `body ${b}`, "map -> body", [...bodyNames].join(",") || "none");
for (const name of sensorNames) {
  const e = staticByChild.get(name);
  if (!check(e !== undefined, "/tf_static", `mount of sensor ${name}`, `<body or map> -> ${name}`, "absent")) continue;
  check(e.parent === MAP || bodyNames.has(e.parent), "/tf_static", `parent of ${name}`, `${MAP} or a body on /tf`, e.parent);
}
for (const cam of cameraNames) {
  const e = staticByChild.get(`${cam}_optical`);
  if (!check(e !== undefined, "/tf_static", `optical frame of ${cam}`, `${cam} -> ${cam}_optical`, "absent")) continue;
  check(e.parent === cam, "/tf_static", `parent of ${cam}_optical`, cam, e.parent);
  check(e.pose.t.every((v) => v === 0), "/tf_static", `translation of ${cam}_optical`, [0, 0, 0], e.pose.t);
  check(qangle(e.pose.q, OPTICAL_Q) < 1e-6, "/tf_static", `rotation of ${cam}_optical (z forward, x right, y down)`, OPTICAL_Q, e.pose.q);
}
{
  const st = byTopic.get("/tf_static");
  if (st && st.channel.metadata.has("offered_qos_profiles") && !/transient_local|durability: 1\b/.test(st.channel.metadata.get("offered_qos_profiles")))
    warn("/tf_static", "offered_qos_profiles without transient_local durability: late subscribers of ros2 bag play miss the mounts");
  if (st && !st.channel.metadata.has("offered_qos_profiles"))
    warn("/tf_static", "no offered_qos_profiles in the channel metadata: ros2 bag play offers it volatile, and late subscribers miss the mounts");
}
// /tf: per body, stamps at tf_rate.
summary.tf = {};
for (const [body, list] of tfDynamic) {
  const dts = [];
  for (let i = 1; i < list.length; i++) dts.push(Number(list[i].ns - list[i - 1].ns) / 1e9);
  dts.sort((a, b) => a - b);
  const med = dts.length ? dts[Math.floor(dts.length / 2)] : NaN;
  summary.tf[body] = { count: list.length, rate_hz: med ? 1 / med : null, first: list.length ? nsToS(list[0].ns) : null };
  if (expect.tf_rate) check(Math.abs(1 / med - expect.tf_rate) < 1e-6 * expect.tf_rate, "/tf", `rate of map -> ${body}`, expect.tf_rate, 1 / med);
}
// Odometry equals /tf where both have the same stamp.
for (const body of bodyNames) {
  const odom = byTopic.get(`/${body}/odom`);
  if (!odom) continue;
  const tfAt = new Map(tfDynamic.get(body).map((e) => [e.ns, e.pose]));
  let compared = 0;
  for (const e of odom.msgs) {
    const p = tfAt.get(stampNs(e.msg.header.stamp));
    if (!p) continue;
    compared++;
    const o = e.msg.pose.pose;
    const dt = Math.hypot(o.position.x - p.t[0], o.position.y - p.t[1], o.position.z - p.t[2]);
    const da = qangle([o.orientation.x, o.orientation.y, o.orientation.z, o.orientation.w], p.q);
    check(dt < 1e-9 && da < 1e-9, `/${body}/odom`, "pose vs /tf at the same stamp", "equal", `${dt} m, ${da} rad apart`);
  }
  check(compared > 0, `/${body}/odom`, "odometry stamps shared with /tf", ">= 1", 0);
  // Twist in the body frame (record.h, REP 105: odometry's twist is in the
  // child frame): against central differences of /tf, rotated into the
  // body. Motion kinks make single samples differ, so the median error is
  // bounded; a twist given in the map frame misses by |v| x the yaw.
  const list = tfDynamic.get(body);
  const errV = [], errW = [], speeds = [];
  const tfIndex = new Map(list.map((e, i) => [e.ns, i]));
  for (const e of odom.msgs) {
    const i = tfIndex.get(stampNs(e.msg.header.stamp));
    if (i === undefined || i === 0 || i === list.length - 1) continue;
    // The truth in map (through map -> odom, which a drift model moves).
    const a = { ns: list[i - 1].ns, pose: poseInMap(body, list[i - 1].ns) };
    const b = { ns: list[i + 1].ns, pose: poseInMap(body, list[i + 1].ns) };
    const c = { ns: list[i].ns, pose: poseInMap(body, list[i].ns) };
    if (!a.pose || !b.pose || !c.pose) continue;
    const dt = Number(b.ns - a.ns) / 1e9;
    const vWorld = [0, 1, 2].map((k) => (b.pose.t[k] - a.pose.t[k]) / dt);
    const vBody = qrot(qconj(c.pose.q), vWorld);
    const dq = qmul(qconj(a.pose.q), b.pose.q); // rotation over 2 dt in the body frame
    const ang = 2 * Math.atan2(Math.hypot(dq[0], dq[1], dq[2]), dq[3]);
    const n = Math.hypot(dq[0], dq[1], dq[2]);
    const wBody = n > 0 ? [dq[0], dq[1], dq[2]].map((x) => (x / n) * ang / dt) : [0, 0, 0];
    const tw = e.msg.twist.twist;
    errV.push(Math.hypot(tw.linear.x - vBody[0], tw.linear.y - vBody[1], tw.linear.z - vBody[2]));
    errW.push(Math.hypot(tw.angular.x - wBody[0], tw.angular.y - wBody[1], tw.angular.z - wBody[2]));
    speeds.push(Math.hypot(...vBody));
  }
  if (errV.length) {
    const med = (x) => [...x].sort((p, q) => p - q)[x.length >> 1];
    const mv = med(errV), mw = med(errW), sp = med(speeds);
    check(mv <= 0.02 + 0.02 * sp, `/${body}/odom`, "twist.linear (body frame) vs /tf's central differences, median error", `<= ${(0.02 + 0.02 * sp).toFixed(3)} m/s`, `${mv.toFixed(4)} m/s`);
    check(mw <= 0.02, `/${body}/odom`, "twist.angular (body frame) vs /tf's central differences, median error", "<= 0.02 rad/s", `${mw.toFixed(4)} rad/s`);
    summary.tf[body].twist_median_error = [mv, mw];
  }
}

// The robot's drifting odometry (--expect "odom_drift": "cart"): map ->
// odom moves away from the identity, and the pose covariance of x, y and
// yaw grows from the exact 1e-9 with the distance travelled.
if (expect.odom_drift) {
  const od = byTopic.get(`/${expect.odom_drift}/odom`);
  const mo = tfDynamic.get(ODOM) ?? [];
  if (check(od !== undefined && mo.length > 0, `/${expect.odom_drift}/odom`, "odometry and map -> odom of the drifting robot", "present", "absent")) {
    const last = mo[mo.length - 1].pose;
    const moved = Math.hypot(...last.t) + qangle(last.q, [0, 0, 0, 1]);
    check(moved > 1e-5, "/tf", `${MAP} -> ${ODOM} drifts (odometry error model)`, "> 1e-5", moved);
    let prev = 0, grows = true;
    for (const e of od.msgs) {
      const c = e.msg.pose.covariance;
      if (c[0] < prev) grows = false;
      prev = c[0];
    }
    check(grows && prev > 1e-9, `/${expect.odom_drift}/odom`, "pose.covariance[0] grows with the distance travelled", "non-decreasing, > 1e-9 at the end", prev);
    summary.odom_drift = { final_map_to_odom: last, final_x_variance: prev };
  }
}

// A frame's pose in map at time ns through /tf (interpolated) and /tf_static.
function poseInMap(frame, ns, depth = 0) {
  if (frame === MAP) return { t: [0, 0, 0], q: [0, 0, 0, 1] };
  if (depth > 16) return null;
  const st = staticByChild.get(frame);
  if (st) {
    const parent = poseInMap(st.parent, ns, depth + 1);
    return parent && { ...compose(parent, st.pose), interpolated: parent.interpolated };
  }
  const list = tfDynamic.get(frame);
  if (!list || list.length === 0) return null;
  let i = list.findIndex((e) => e.ns >= ns);
  if (i === -1) return null; // after the last transform: no extrapolation
  const parent = poseInMap(list[i].parent, ns, depth + 1);
  if (!parent) return null;
  if (list[i].ns === ns) return { ...compose(parent, list[i].pose), interpolated: parent.interpolated };
  if (i === 0) return null;
  const a = list[i - 1], b = list[i];
  const u = Number(ns - a.ns) / Number(b.ns - a.ns);
  const local = { t: a.pose.t.map((v, k) => v + u * (b.pose.t[k] - v)), q: slerp(a.pose.q, b.pose.q, u) };
  return { ...compose(parent, local), interpolated: true };
}
let lastTfNs = -1n;
for (const list of tfDynamic.values()) if (list.length && list[list.length - 1].ns > lastTfNs) lastTfNs = list[list.length - 1].ns;
// Every header's frame reaches map at its stamp.
for (const [topic, t] of byTopic) {
  if (t.schema === TYPE.tf || t.msgs.length === 0 || !t.msgs[0].msg.header) continue;
  let pastEnd = 0;
  for (const e of t.msgs) {
    const frame = e.msg.header.frame_id;
    const ns = stampNs(e.msg.header.stamp);
    if (poseInMap(frame, ns)) continue;
    // A stamp after the last /tf of its body cannot be looked up (tf does not
    // extrapolate): a warning at the end of a recording, a failure before.
    if (ns > lastTfNs) { pastEnd++; continue; }
    fail(topic, `frame ${frame} at ${nsToS(ns)} s does not reach map through /tf and /tf_static`);
  }
  if (pastEnd) warn(topic, `${pastEnd} messages stamped after the last /tf (${nsToS(lastTfNs)} s): their frames cannot be looked up`);
}

// ---- expectations ------------------------------------------------------------------------

for (const [topic, n] of Object.entries(expect.topics ?? {}))
  check(summary.topics[topic]?.count === n, topic, "message count", n, summary.topics[topic]?.count ?? "no such topic");
for (const [name, sx] of Object.entries(expect.sensors ?? {})) {
  const mine = [...byTopic].filter(([topic]) => topicParts(topic)?.name === name && byTopic.get(topic).schema !== TYPE.odom);
  check(mine.length > 0, `/${name}`, "topics of sensor", ">= 1", 0);
  if (sx.lag !== undefined)
    for (const [topic, t] of mine)
      for (const e of t.msgs) {
        // A point cloud stamped at its scan's first firing (--lidar-time
        // start) is delivered a window after it plus the lag.
        const first = byTopic.get(topic).schema === TYPE.cloud && expect.lidar_time !== "end";
        const want = sx.lag + (first ? sx.window ?? NaN : 0);
        const lag = Number(e.log - stampNs(e.msg.header.stamp)) / 1e9;
        check(Math.abs(lag - want) <= 1e-9 + 1e-12, topic, first ? "log time - header.stamp (the window and the sensor's lag)" : "log time - header.stamp (the sensor's lag)", want, lag);
      }
  for (const topic of sx.topics ?? [])
    check(byTopic.has(topic), topic, `topic of sensor ${name}`, "present", "absent");
}

for (const [name, cx] of Object.entries(expect.cameras ?? {})) {
  const topic = `/${name}/camera_info`;
  const t = byTopic.get(topic);
  if (!check(t && t.msgs.length > 0, topic, "camera_info messages", ">= 1", 0)) continue;
  const m = t.msgs[0].msg;
  if (cx.hfov_deg !== undefined) {
    // docs/camera_pipeline.md: fx = fy = (W / 2) / tan(hfov / 2), cx = (W - 1) / 2, cy = (H - 1) / 2
    // for the sensor's W x H; with binning b ("downsample"), delivered
    // pixel u is the mean of the sensor's b u .. b u + b - 1, centred on
    // b u + (b - 1) / 2: K' = [f / b, (cx - (b - 1) / 2) / b] (docs/recording.md).
    const [W, H] = cx.sensor_size ?? [m.width, m.height];
    const b = cx.binning ?? 1;
    if (cx.sensor_size) check(m.width === Math.floor(W / b) && m.height === Math.floor(H / b), topic, `size of ${W} x ${H} in blocks of ${b}`, `${Math.floor(W / b)}x${Math.floor(H / b)}`, `${m.width}x${m.height}`);
    const f = W / 2 / Math.tan((cx.hfov_deg * Math.PI) / 360) / b;
    const want = [f, 0, ((W - 1) / 2 - (b - 1) / 2) / b, 0, f, ((H - 1) / 2 - (b - 1) / 2) / b, 0, 0, 1];
    check(want.every((v, i) => Math.abs(v - m.k[i]) <= 1e-9 * Math.max(1, Math.abs(v))), topic, `k of a ${cx.hfov_deg} deg camera`, want, Array.from(m.k));
  }
  if (cx.distortion_model !== undefined) check(m.distortion_model === cx.distortion_model, topic, "distortion_model", cx.distortion_model, m.distortion_model);
  if (cx.d !== undefined) check(cx.d.length === m.d.length && cx.d.every((v, i) => v === m.d[i]), topic, "d (the scenario's dist)", cx.d, Array.from(m.d));
}

// ---- comparison with the run's own files ------------------------------------------------------

if (compareDir) {
  const { compareOutputs } = await import("./compare.mjs");
  compareOutputs({ dir: compareDir, byTopic, TYPE, topicParts, stampNs, stampErrNs, poseInMap, fail, warn, check, same, cloudPoints, summary, expect, lidarTimes, qangle, nsToS });
}

// ---- report ------------------------------------------------------------------------------------

summary.warnings = warnings;
summary.failures = failures;
process.stdout.write(JSON.stringify(summary, (_, v) => (typeof v === "bigint" ? v.toString() : (typeof v === "number" && !Number.isFinite(v) ? String(v) : v)), summaryOnly ? 0 : 1) + "\n");
for (const w of warnings) process.stderr.write(`warning ${w}\n`);
for (const f of failures) process.stderr.write(`FAIL ${f}\n`);
process.stderr.write(`verify.mjs: ${file}: ${stream.messages.length} messages on ${channels.size} topics in ${stream.chunks.length} chunks; ${failures.length ? `${failures.length} failed checks` : "all checks passed"}${warnings.length ? `, ${warnings.length} warnings` : ""}\n`);
process.exit(failures.length ? 1 : 0);
