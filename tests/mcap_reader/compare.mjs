// compare.mjs: verify.mjs --compare OUT. Compares the decoded messages of
// a recording with the files the same run wrote into OUT, per sensor folder:
//   <name>.csv      gnss, imu, mag rows (shortest round-trip numbers: equal
//                   to the CDR doubles bit for bit) and their t_capture
//   scan_*.pcd      PointCloud2 points (float32 bits equal; `time` per the
//                   lidar time convention), VIEWPOINT vs /tf + /tf_static
//   frame_*.png     Image pixels (8/16-bit exactly; depth in mm within 1)
//   frame_*.npy     RadarCube / RadarRangeDoppler samples (float32 bits equal)
//   camera_info.yaml  vs CameraInfo
//   poses.txt       TUM lines vs the stamps and the frames' poses on /tf
// The PNG, PCD, CSV, YAML and TUM readers here are small and written from
// the formats' specifications, not from sensim's code.

import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { inflateSync } from "node:zlib";

// ---- file readers ---------------------------------------------------------------------

// NumPy .npy 1.0 (numpy.lib.format): magic, version, a little-endian
// uint16 header length, a Python dict literal; the data after it.
export function readNpy(path) {
  const b = readFileSync(path);
  if (b.toString("latin1", 0, 6) !== "\x93NUMPY") throw new Error(`${path}: not a .npy file`);
  if (b[6] !== 1) throw new Error(`${path}: .npy version ${b[6]}.${b[7]}, not 1.0`);
  const hlen = b.readUInt16LE(8);
  const head = b.toString("latin1", 10, 10 + hlen);
  const descr = /'descr':\s*'([^']+)'/.exec(head)?.[1];
  const fortran = /'fortran_order':\s*(True|False)/.exec(head)?.[1];
  const shape = /'shape':\s*\(([^)]*)\)/.exec(head)?.[1].split(",").map((s) => s.trim()).filter((s) => s).map(Number);
  if (!descr || !fortran || !shape) throw new Error(`${path}: bad .npy header ${head}`);
  const data = b.subarray(10 + hlen);
  return { descr, fortran: fortran === "True", shape, headerEnd: 10 + hlen, data };
}

// PNG (non-interlaced): {width, height, depth, channels, samples(i) -> value}.
export function readPng(path) {
  const b = readFileSync(path);
  const sig = [137, 80, 78, 71, 13, 10, 26, 10];
  if (!sig.every((v, i) => b[i] === v)) throw new Error(`${path}: not a PNG`);
  let off = 8, width = 0, height = 0, depth = 0, ctype = 0, interlace = 0;
  const idat = [];
  while (off < b.length) {
    const len = b.readUInt32BE(off);
    const type = b.toString("latin1", off + 4, off + 8);
    const data = b.subarray(off + 8, off + 8 + len);
    if (type === "IHDR") {
      width = data.readUInt32BE(0); height = data.readUInt32BE(4);
      depth = data[8]; ctype = data[9]; interlace = data[12];
    } else if (type === "IDAT") idat.push(data);
    else if (type === "IEND") break;
    off += 12 + len;
  }
  if (interlace) throw new Error(`${path}: interlaced PNG not supported`);
  const channels = { 0: 1, 2: 3, 4: 2, 6: 4 }[ctype];
  if (!channels) throw new Error(`${path}: PNG colour type ${ctype} not supported`);
  const raw = inflateSync(Buffer.concat(idat));
  const bpp = Math.max(1, (channels * depth) >> 3);
  const stride = (width * channels * depth + 7) >> 3;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)];
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = out.subarray(y * stride, (y + 1) * stride);
    const up = y ? out.subarray((y - 1) * stride, y * stride) : new Uint8Array(stride);
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? row[x - bpp] : 0, c = x >= bpp ? up[x - bpp] : 0, u = up[x];
      let p;
      switch (f) {
        case 0: p = 0; break;
        case 1: p = a; break;
        case 2: p = u; break;
        case 3: p = (a + u) >> 1; break;
        case 4: {
          const pa = Math.abs(u - c), pb = Math.abs(a - c), pc = Math.abs(a + u - 2 * c);
          p = pa <= pb && pa <= pc ? a : pb <= pc ? u : c;
          break;
        }
        default: throw new Error(`${path}: bad filter ${f} in row ${y}`);
      }
      row[x] = (src[x] + p) & 255;
    }
  }
  const sample = depth === 16 ? (i) => (out[2 * i] << 8) | out[2 * i + 1] : (i) => out[i];
  return { width, height, depth, channels, sample, bytes: out };
}

// PCD v0.7, ascii or binary: {width, height, viewpoint, fields: {name: [values]}}.
export function readPcd(path) {
  const b = readFileSync(path);
  let off = 0;
  const hdr = {};
  for (;;) {
    const nl = b.indexOf(10, off);
    if (nl < 0) throw new Error(`${path}: no DATA line`);
    const line = b.toString("latin1", off, nl).trim();
    off = nl + 1;
    if (line.startsWith("#") || line === "") continue;
    const [key, ...vals] = line.split(/\s+/);
    hdr[key] = vals;
    if (key === "DATA") break;
  }
  const names = hdr.FIELDS, size = hdr.SIZE.map(Number), type = hdr.TYPE, count = (hdr.COUNT ?? names.map(() => "1")).map(Number);
  const width = Number(hdr.WIDTH[0]), height = Number(hdr.HEIGHT[0]);
  const n = Number(hdr.POINTS?.[0] ?? width * height);
  const fields = Object.fromEntries(names.map((nm) => [nm, new Array(n)]));
  const mode = hdr.DATA[0];
  if (mode === "ascii") {
    const lines = b.toString("latin1", off).split("\n").filter((l) => l.trim() !== "");
    if (lines.length !== n) throw new Error(`${path}: ${lines.length} lines, POINTS ${n}`);
    for (let i = 0; i < n; i++) {
      const v = lines[i].trim().split(/\s+/);
      let k = 0;
      names.forEach((nm, j) => {
        const x = v[k].toLowerCase() === "nan" ? NaN : Number(v[k]);
        fields[nm][i] = type[j] === "F" && size[j] === 4 ? Math.fround(x) : x;
        k += count[j];
      });
    }
  } else if (mode === "binary") {
    const rec = names.reduce((a, _, j) => a + size[j] * count[j], 0);
    if (b.length - off !== rec * n) throw new Error(`${path}: ${b.length - off} data bytes, ${rec} x ${n} expected`);
    const dv = new DataView(b.buffer, b.byteOffset + off, rec * n);
    const offs = [];
    names.reduce((a, _, j) => { offs.push(a); return a + size[j] * count[j]; }, 0);
    const getter = (t, s) => ({ F4: (o) => dv.getFloat32(o, true), F8: (o) => dv.getFloat64(o, true), U1: (o) => dv.getUint8(o), U2: (o) => dv.getUint16(o, true), U4: (o) => dv.getUint32(o, true), I1: (o) => dv.getInt8(o), I2: (o) => dv.getInt16(o, true), I4: (o) => dv.getInt32(o, true) })[`${t}${s}`];
    names.forEach((nm, j) => {
      const g = getter(type[j], size[j]);
      for (let i = 0; i < n; i++) fields[nm][i] = g(i * rec + offs[j]);
    });
  } else {
    throw new Error(`${path}: DATA ${mode} not supported`);
  }
  const vp = (hdr.VIEWPOINT ?? ["0", "0", "0", "1", "0", "0", "0"]).map(Number);
  return { width, height, n, fields, viewpoint: { t: vp.slice(0, 3), q: [vp[4], vp[5], vp[6], vp[3]] } };
}

// CSV with a header line and numeric cells ("nan" allowed).
export function readCsv(path) {
  const lines = readFileSync(path, "utf8").split("\n").filter((l) => l !== "");
  const cols = lines[0].split(",");
  const rows = lines.slice(1).map((l) => {
    const v = l.split(",");
    const r = {};
    cols.forEach((c, i) => { r[c] = v[i] === "nan" ? NaN : v[i] === "inf" ? Infinity : v[i] === "-inf" ? -Infinity : Number(v[i]); });
    return r;
  });
  return { cols, rows };
}

// camera_calibration_parsers' YAML: scalars and {rows, cols, data: [...]} matrices.
export function readCameraYaml(path) {
  const text = readFileSync(path, "utf8");
  const out = {};
  for (const key of ["image_width", "image_height"]) {
    const m = new RegExp(`^${key}:\\s*(\\S+)`, "m").exec(text);
    if (m) out[key] = Number(m[1]);
  }
  for (const key of ["camera_name", "distortion_model"]) {
    const m = new RegExp(`^${key}:\\s*(.*)$`, "m").exec(text);
    if (m) out[key] = m[1].trim().replace(/^["']|["']$/g, "");
  }
  for (const key of ["camera_matrix", "distortion_coefficients", "rectification_matrix", "projection_matrix"]) {
    const m = new RegExp(`^${key}:\\s*\\n\\s+rows:\\s*(\\d+)\\s*\\n\\s+cols:\\s*(\\d+)\\s*\\n\\s+data:\\s*\\[([^\\]]*)\\]`, "m").exec(text);
    if (m) out[key] = { rows: Number(m[1]), cols: Number(m[2]), data: m[3].split(",").map((s) => s.trim()).filter((s) => s !== "").map(Number) };
  }
  return out;
}

// TUM: "t tx ty tz qx qy qz qw" per line, '#' comments.
export function readTum(path) {
  return readFileSync(path, "utf8").split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#")).map((l) => {
    const v = l.split(/\s+/).map(Number);
    return { t: v[0], pose: { t: v.slice(1, 4), q: v.slice(4, 8) }, n: v.length };
  });
}

// ---- the comparison ------------------------------------------------------------------------

// A sensor's name as its topics and frames spell it (docs/recording.md):
// characters other than letters, digits and _ become _, and a leading digit
// gets a _ in front.
export function rosName(name) {
  const n = name.replace(/[^A-Za-z0-9_]/g, "_");
  return /^[0-9]/.test(n) ? `_${n}` : n;
}

const numSort = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

export function compareOutputs(ctx) {
  const { dir, byTopic, TYPE, topicParts, stampNs, stampErrNs, poseInMap, fail, warn, check, same, cloudPoints, summary, expect, qangle } = ctx;
  const compared = {};
  summary.compared = compared;
  const folders = readdirSync(dir).filter((f) => statSync(join(dir, f)).isDirectory()).sort();
  const sensorTopics = new Map(); // sensor name -> its topics
  for (const [topic, t] of byTopic) {
    const p = topicParts(topic);
    if (!p || t.schema === TYPE.odom) continue;
    if (!sensorTopics.has(p.name)) sensorTopics.set(p.name, []);
    sensorTopics.get(p.name).push(topic);
  }
  for (const name of sensorTopics.keys())
    if (!folders.map(rosName).includes(name)) warn(`/${name}`, `no folder ${name} in ${dir} to compare with (output "none"?)`);

  // A time in s as ns, rounded to the nearest (as sensim stamps a time).
  const sToNs = (t) => {
    const whole = Math.floor(t);
    return BigInt(whole) * 1000000000n + BigInt(Math.round((t - whole) * 1e9));
  };
  // Per lidar topic, each message's capture time less its stamp (s): the
  // window with --lidar-time start (the stamp is the first firing), 0 with
  // end; stamp + time is then each point's firing time (LIO-SAM, FAST-LIO).
  const lidarShift = new Map();
  const lidarSkip = new Map(); // the PCDs of scans before time 0, not recorded
  const stampCheck = (topic, what, e, t) => {
    const shift = lidarShift.get(topic)?.get(e);
    if (shift !== undefined) {
      // float32 times: the capture is found to a microsecond.
      const err = Math.abs(ctx.nsToS(stampNs(e.msg.header.stamp)) + shift - t);
      check(err <= 2e-6, topic, `header.stamp + (time - PCD time) vs ${what} (the capture, to float32 time)`, t, `${ctx.nsToS(stampNs(e.msg.header.stamp))} + ${shift} (${err.toExponential(2)} s off)`);
      return;
    }
    const err = stampErrNs(stampNs(e.msg.header.stamp), t);
    check(err <= 0.5 + 1e-3, topic, `header.stamp vs ${what} (t_capture to the nearest ns)`, t, `${ctx.nsToS(stampNs(e.msg.header.stamp))} (${err.toFixed(3)} ns off)`);
  };
  // The sensor's true pose in map at a stamp, through /tf and /tf_static:
  // equal (to rounding) where the stamp is one of /tf's; between two /tf
  // messages interpolated, which is off by up to (angular rate x 1/tf_rate)/4
  // where the motion turns, hence the loose tolerance there.
  const exactPoses = (summary.poses_compared ??= { at_tf_stamps: 0, interpolated: 0 });
  const poseCheck = (topic, what, frame, ns, want) => {
    const got = poseInMap(frame, ns);
    if (!got) return false;
    const [tolM, tolRad] = got.interpolated ? [1e-2, 1e-2] : [1e-6, 1e-6];
    exactPoses[got.interpolated ? "interpolated" : "at_tf_stamps"]++;
    const dt = Math.hypot(got.t[0] - want.t[0], got.t[1] - want.t[1], got.t[2] - want.t[2]);
    const da = qangle(got.q, want.q);
    check(dt <= tolM && da <= tolRad, topic, `${what} vs the ${frame} frame through /tf and /tf_static at ${ctx.nsToS(ns)} s`, `t ${want.t.map((v) => v.toFixed(6))} q ${want.q.map((v) => v.toFixed(6))}`, `t ${got.t.map((v) => v.toFixed(6))} q ${got.q.map((v) => v.toFixed(6))} (${dt.toExponential(2)} m, ${da.toExponential(2)} rad apart)`);
    return true;
  };

  for (const folder of folders) {
    // Topics and frames use the sensor's name made a ROS name
    // (docs/recording.md); its folder and CSV keep the name as given.
    const name = rosName(folder);
    const fdir = join(dir, folder);
    const files = readdirSync(fdir).sort();
    const c = {};
    compared[folder] = c;
    const has = (topic) => byTopic.has(topic) && byTopic.get(topic).msgs.length >= 0;
    let mainTopic = null;

    // -- CSV: gnss, imu, mag
    const csvName = `${folder}.csv`;
    if (files.includes(csvName)) {
      const { cols, rows } = readCsv(join(fdir, csvName));
      c.csv_rows = rows.length;
      if (cols[0] === "t" && cols[1] === "ax") {
        mainTopic = `/${name}/imu`;
        if (check(has(mainTopic), mainTopic, `topic for ${name}/${csvName} (imu)`, "present", "absent")) {
          const msgs = byTopic.get(mainTopic).msgs;
          check(msgs.length === rows.length, mainTopic, `messages vs rows of ${name}/${csvName}`, rows.length, msgs.length);
          for (let i = 0; i < Math.min(rows.length, msgs.length); i++) {
            const r = rows[i], m = msgs[i].msg;
            stampCheck(mainTopic, `${csvName} row ${i + 1} t`, msgs[i], r.t);
            const got = [m.linear_acceleration.x, m.linear_acceleration.y, m.linear_acceleration.z, m.angular_velocity.x, m.angular_velocity.y, m.angular_velocity.z];
            const want = [r.ax, r.ay, r.az, r.gx, r.gy, r.gz];
            check(want.every((v, k) => same(v, got[k])), mainTopic, `linear_acceleration, angular_velocity vs ${csvName} row ${i + 1} (t ${r.t})`, want, got);
          }
        }
      } else if (cols[0] === "t" && cols[1] === "bx") {
        mainTopic = `/${name}/mag`;
        if (check(has(mainTopic), mainTopic, `topic for ${name}/${csvName} (mag)`, "present", "absent")) {
          const msgs = byTopic.get(mainTopic).msgs;
          check(msgs.length === rows.length, mainTopic, `messages vs rows of ${name}/${csvName}`, rows.length, msgs.length);
          for (let i = 0; i < Math.min(rows.length, msgs.length); i++) {
            const r = rows[i], m = msgs[i].msg;
            stampCheck(mainTopic, `${csvName} row ${i + 1} t`, msgs[i], r.t);
            const got = [m.magnetic_field.x, m.magnetic_field.y, m.magnetic_field.z];
            const want = [r.bx, r.by, r.bz];
            check(want.every((v, k) => same(v, got[k])), mainTopic, `magnetic_field vs ${csvName} row ${i + 1} (t ${r.t})`, want, got);
          }
        }
      } else if (cols[0] === "t_capture" && cols[1] === "lat") {
        mainTopic = `/${name}/fix`;
        if (check(has(mainTopic), mainTopic, `topic for ${name}/${csvName} (gnss)`, "present", "absent")) {
          const msgs = byTopic.get(mainTopic).msgs;
          check(msgs.length === rows.length, mainTopic, `messages vs rows of ${name}/${csvName}`, rows.length, msgs.length);
          for (let i = 0; i < Math.min(rows.length, msgs.length); i++) {
            const r = rows[i], m = msgs[i].msg;
            stampCheck(mainTopic, `${csvName} row ${i + 1} t_capture`, msgs[i], r.t_capture);
            const where = `${csvName} row ${i + 1} (t ${r.t_capture})`;
            const fix = r.fix_type !== 0;
            check(fix === m.status.status >= 0, mainTopic, `status.status vs fix_type of ${where}`, fix ? ">= 0 (fix)" : "-1 (no fix)", m.status.status);
            if (fix || !Number.isNaN(m.latitude)) {
              const got = [m.latitude, m.longitude, m.altitude];
              const want = [r.lat, r.lon, r.height];
              check(want.every((v, k) => same(v, got[k])), mainTopic, `latitude, longitude, altitude vs lat, lon, height of ${where}`, want, got);
            }
            if (fix) {
              const cov = m.position_covariance;
              const got = [cov[0], cov[4], cov[8]];
              const want = [r.cov_ee, r.cov_nn, r.cov_uu];
              check(want.every((v, k) => same(v, got[k])), mainTopic, `position_covariance diagonal (ENU) vs cov_ee, cov_nn, cov_uu of ${where}`, want, got);
            }
          }
        }
      } else if (cols[0] === "t_capture" && cols[1] === "detected") {
        c.left_out = true;
        check(!sensorTopics.has(name), `/${name}`, "a cone sensor's detections are left out of the recording", "no topic", (sensorTopics.get(name) ?? []).join(","));
      } else if (cols[0] === "t_capture" && cols[1] === "x") {
        warn(`/${name}`, `${csvName}: points as CSV not compared`);
      } else {
        warn(`/${name}`, `${csvName}: unknown columns ${cols.join(",")}`);
      }
    }

    // -- PCD scans
    const pcds = files.filter((f) => /^scan_\d+\.pcd$/.test(f));
    if (pcds.length) {
      mainTopic = `/${name}/points`;
      c.pcd = pcds.length;
      if (check(has(mainTopic), mainTopic, `topic for ${name}/scan_*.pcd`, "present", "absent")) {
        const msgs = byTopic.get(mainTopic).msgs;
        // With --lidar-time start, the scans that began before time 0 have
        // no stamp and are not recorded (docs/recording.md): the first PCDs.
        const skip = expect.lidar_time === "end" ? 0 : Math.max(0, pcds.length - msgs.length);
        lidarSkip.set(mainTopic, skip);
        check(msgs.length + skip === pcds.length, mainTopic, `messages vs ${name}/scan_*.pcd files`, pcds.length, msgs.length);
        pcds.splice(0, skip);
        const offsets = [];
        const shifts = new Map();
        lidarShift.set(mainTopic, shifts);
        const tum = files.includes("poses.txt") ? readTum(join(fdir, "poses.txt")) : null;
        let points = 0;
        for (let i = 0; i < Math.min(pcds.length, msgs.length); i++) {
          const pcd = readPcd(join(fdir, pcds[i]));
          const m = msgs[i].msg;
          const where = `${name}/${pcds[i]}`;
          points += pcd.n;
          if (!check(m.width * m.height === pcd.n, mainTopic, `points vs ${where}`, pcd.n, m.width * m.height)) continue;
          check(m.width === pcd.width && m.height === pcd.height, mainTopic, `width x height vs ${where}`, `${pcd.width}x${pcd.height}`, `${m.width}x${m.height}`);
          const p = cloudPoints(m);
          for (const [f, g] of [["x", "x"], ["y", "y"], ["z", "z"], ["intensity", "intensity"], ["ring", "ring"], ["return", "return"], ["label", "label"], ["instance", "instance"]]) {
            if (!p[f] || !pcd.fields[g]) { fail(mainTopic, `field ${f} to compare with ${where}`, "present in both", `${!!p[f]}, ${!!pcd.fields[g]}`); continue; }
            let bad = -1;
            for (let k = 0; k < pcd.n; k++) if (!same(p[f][k], pcd.fields[g][k])) { bad = k; break; }
            check(bad < 0, mainTopic, `${f} of point ${bad} vs ${where}`, pcd.fields[g][bad], p[f][bad]);
          }
          // time: the PCD's is the frame's time offset (<= 0); the message's
          // follows the lidar time convention: the same, or + the window.
          if (p.time && pcd.fields.time) {
            const d = [];
            for (let k = 0; k < pcd.n; k++) if (!Number.isNaN(pcd.fields.time[k])) d.push(p.time[k] - pcd.fields.time[k]);
            if (d.length) {
              d.sort(numSort);
              const med = d[d.length >> 1];
              offsets.push(med);
              const spread = d[d.length - 1] - d[0];
              check(spread <= 2e-6, mainTopic, `time - PCD time constant over the points of ${where}`, "one offset (the window or 0)", `${d[0]} .. ${d[d.length - 1]}`);
              if (expect.lidar_time === "end") check(d[0] === 0 && d[d.length - 1] === 0, mainTopic, `time vs ${where} (lidar time from the end: equal)`, 0, `${d[0]} .. ${d[d.length - 1]}`);
              if (expect.lidar_time === "start") check(med > 0, mainTopic, `time - PCD time of ${where} (lidar time from the start: the window, > 0)`, "> 0", med);
              shifts.set(msgs[i], med);
            }
          }
          // The stamp is the instant the time field counts from: the first
          // firing (start) or the capture (end); the PCD's time counts from
          // the capture. PCD VIEWPOINT: the sensor's pose at the capture,
          // whose exact time poses.txt has.
          let ns = stampNs(m.header.stamp);
          const shift = shifts.get(msgs[i]) ?? 0;
          if (expect.lidar_time === "end") check(shift === 0, mainTopic, `stamp of ${where} (lidar time from the end: the capture)`, 0, shift);
          const line = tum?.[i + skip];
          if (line) {
            const err = Math.abs(ctx.nsToS(ns) + shift - line.t);
            if (check(err <= 2e-6, mainTopic, `header.stamp + (time - PCD time) of ${where} vs poses.txt t (the capture)`, line.t, `${ctx.nsToS(ns)} + ${shift}`)) ns = sToNs(line.t);
          }
          if (i === 0 && skip) for (let k = 0; k < skip; k++) check(tum?.[k] && tum[k].t < shift, mainTopic, `scan ${k} left out (began before time 0)`, `capture < ${shift}`, tum?.[k]?.t);
          if (!poseCheck(mainTopic, `VIEWPOINT of ${where}`, m.header.frame_id, ns, pcd.viewpoint))
            if (i < msgs.length - 1) fail(mainTopic, `frame ${m.header.frame_id} at ${ctx.nsToS(ns)} s does not reach map`);
        }
        c.points = points;
        if (offsets.length) c.time_offset = [offsets[0], offsets[offsets.length - 1]];
      }
    }

    // -- .npy frames of the radar's raw FMCW chain
    const npys = files.filter((f) => /^frame_\d+\.npy$/.test(f));
    if (npys.length) {
      mainTopic = byTopic.has(`/${name}/range_doppler`) ? `/${name}/range_doppler` : `/${name}/radar_cube`;
      c.npy = npys.length;
      if (check(has(mainTopic), mainTopic, `topic for ${name}/frame_*.npy`, "present", "absent")) {
        const msgs = byTopic.get(mainTopic).msgs;
        check(msgs.length === npys.length, mainTopic, `messages vs ${name}/frame_*.npy files`, npys.length, msgs.length);
        for (let i = 0; i < Math.min(npys.length, msgs.length); i++) {
          const npy = readNpy(join(fdir, npys[i]));
          const m = msgs[i].msg;
          const where = `${name}/${npys[i]}`;
          const dims = m.chirps !== undefined ? [m.chirps, m.channels, m.samples] : [m.channels, m.doppler_bins, m.range_bins];
          check(npy.descr === "<c8" && !npy.fortran, mainTopic, `dtype of ${where}`, "<c8, C order", `${npy.descr}${npy.fortran ? ", Fortran" : ""}`);
          check(npy.headerEnd % 64 === 0, mainTopic, `data of ${where} 64-byte aligned`, 0, npy.headerEnd % 64);
          if (!check(npy.shape.join(",") === dims.join(","), mainTopic, `shape of ${where}`, dims.join(","), npy.shape.join(","))) continue;
          const dv = new DataView(npy.data.buffer, npy.data.byteOffset, npy.data.byteLength);
          let bad = -1;
          for (let k = 0; k < m.data.length && bad < 0; k++) if (!same(dv.getFloat32(4 * k, true), m.data[k])) bad = k;
          check(bad < 0 && npy.data.length === 4 * m.data.length, mainTopic, `float ${bad} vs ${where}`, "equal", "differs");
        }
      }
    }

    // -- PNG frames
    const pngs = files.filter((f) => /^frame_\d+\.png$/.test(f));
    if (pngs.length) {
      // A camera whose chain ends in labels has no image_raw: its frames are
      // /<name>/class_ids (and instance_ids); the PNG holds the class ids.
      mainTopic = !byTopic.has(`/${name}/image_raw`) && byTopic.has(`/${name}/class_ids`) ? `/${name}/class_ids` : `/${name}/image_raw`;
      c.png = pngs.length;
      if (check(has(mainTopic), mainTopic, `topic for ${name}/frame_*.png`, "present", "absent")) {
        const msgs = byTopic.get(mainTopic).msgs;
        check(msgs.length === pngs.length, mainTopic, `messages vs ${name}/frame_*.png files`, pngs.length, msgs.length);
        for (let i = 0; i < Math.min(pngs.length, msgs.length); i++) {
          const png = readPng(join(fdir, pngs[i]));
          const m = msgs[i].msg;
          const where = `${name}/${pngs[i]}`;
          if (!check(m.width === png.width && m.height === png.height, mainTopic, `size vs ${where}`, `${png.width}x${png.height}`, `${m.width}x${m.height}`)) continue;
          const n = png.width * png.height;
          const dv = new DataView(m.data.buffer, m.data.byteOffset, m.data.byteLength);
          const enc = m.encoding;
          let bad = -1, want, got;
          if (enc === "rgb8" && png.channels === 4 && png.depth === 8) {
            // A camera's rgba8 frames are published as rgb8 (their alpha is
            // always 255): the PNG's RGB, and an opaque alpha.
            for (let k = 0; k < n * 4 && bad < 0; k++) {
              const w = png.bytes[k], g = k % 4 === 3 ? 255 : m.data[3 * (k >> 2) + (k % 4)];
              if (w !== g) { bad = k; want = w; got = g; }
            }
            check(bad < 0, mainTopic, `byte ${bad} (pixel ${Math.floor(bad / 4)}) vs ${where}`, want, got);
          } else if ((enc === "rgba8" && png.channels === 4 && png.depth === 8) || (enc === "rgb8" && png.channels === 3 && png.depth === 8) || (enc === "mono8" && png.channels === 1 && png.depth === 8)) {
            for (let k = 0; k < n * png.channels; k++) if (png.bytes[k] !== m.data[k]) { bad = k; want = png.bytes[k]; got = m.data[k]; break; }
            check(bad < 0, mainTopic, `byte ${bad} (pixel ${Math.floor(bad / png.channels)}) vs ${where}`, want, got);
          } else if (((enc === "mono16" || enc === "16UC1") && png.channels === 1) || (enc === "rgb16" && png.channels === 3)) {
            for (let k = 0; k < n * png.channels; k++) if (png.sample(k) !== dv.getUint16(2 * k, true)) { bad = k; want = png.sample(k); got = dv.getUint16(2 * k, true); break; }
            check(bad < 0, mainTopic, `sample ${bad} vs ${where}`, want, got);
          } else if (enc === "32FC1" && png.channels === 1 && png.depth === 16) {
            // sensim's depth PNG: millimetres, clamped at 65.535 m, 0 = no
            // hit, which the message has as +Inf (REP 118; NaN: invalid).
            for (let k = 0; k < n; k++) {
              const d = dv.getFloat32(4 * k, true);
              const mm = png.sample(k);
              const ok = mm === 0 ? d === Infinity || Number.isNaN(d) || (d > 0 && d < 0.0005) : Math.abs(Math.min(65535, d * 1000) - mm) <= 1;
              if (!ok) { bad = k; want = mm; got = d; break; }
            }
            check(bad < 0, mainTopic, `depth of pixel ${bad} vs ${where} (mm)`, want, got);
          } else {
            warn(mainTopic, `${enc} vs a PNG of ${png.channels} channels x ${png.depth} bits: not compared`);
          }
        }
      }
    }

    // -- camera_info.yaml
    if (files.includes("camera_info.yaml")) {
      const y = readCameraYaml(join(fdir, "camera_info.yaml"));
      const topic = `/${name}/camera_info`;
      c.camera_info_yaml = true;
      if (check(has(topic) && byTopic.get(topic).msgs.length > 0, topic, `messages to compare with ${name}/camera_info.yaml`, ">= 1", 0)) {
        const m = byTopic.get(topic).msgs[0].msg;
        const where = `${name}/camera_info.yaml`;
        check(y.image_width === m.width && y.image_height === m.height, topic, `size vs ${where}`, `${y.image_width}x${y.image_height}`, `${m.width}x${m.height}`);
        check(y.camera_name === name || y.camera_name === folder, topic, `camera_name in ${where}`, name, y.camera_name);
        check(y.distortion_model === m.distortion_model, topic, `distortion_model vs ${where}`, y.distortion_model, m.distortion_model);
        for (const [key, field, rows, cols] of [["camera_matrix", "k", 3, 3], ["distortion_coefficients", "d", 1, m.d.length], ["rectification_matrix", "r", 3, 3], ["projection_matrix", "p", 3, 4]]) {
          const mat = y[key];
          if (!check(mat !== undefined, topic, `${key} in ${where}`, "present", "absent")) continue;
          check(mat.rows === rows && mat.cols === cols && mat.data.length === rows * cols, topic, `${key} shape in ${where}`, `${rows}x${cols}`, `${mat.rows}x${mat.cols}, ${mat.data.length} values`);
          const got = Array.from(m[field]);
          const close = mat.data.length === got.length && mat.data.every((v, k) => v === got[k] || Math.abs(v - got[k]) <= 1e-12 * Math.max(1, Math.abs(got[k])));
          check(close, topic, `${field} vs ${key} of ${where}`, mat.data, got);
        }
      }
    } else if (byTopic.has(`/${name}/camera_info`)) {
      warn(`/${name}/camera_info`, `no ${name}/camera_info.yaml beside the recording's camera`);
    }

    // -- poses.txt (TUM)
    if (files.includes("poses.txt")) {
      const tum = readTum(join(fdir, "poses.txt"));
      c.poses = tum.length;
      if (mainTopic && lidarSkip.get(mainTopic)) tum.splice(0, lidarSkip.get(mainTopic));
      const topic = mainTopic ?? (sensorTopics.get(name) ?? [])[0];
      if (!topic && files.includes(csvName)) {
        // A sensor the recording leaves out (cone): poses.txt against its CSV.
        const { rows } = readCsv(join(fdir, csvName));
        check(tum.length === rows.length, `/${name}`, `${name}/poses.txt lines vs rows of ${csvName}`, rows.length, tum.length);
        const bad = tum.findIndex((l, i) => rows[i] && l.t !== (rows[i].t_capture ?? rows[i].t));
        check(bad < 0, `/${name}`, `${name}/poses.txt line ${bad + 1} t vs ${csvName}`, rows[bad]?.t_capture, tum[bad]?.t);
      } else if (check(topic && byTopic.has(topic), `/${name}`, "a topic to compare poses.txt with", "present", "absent")) {
        const msgs = byTopic.get(topic).msgs;
        check(tum.length === msgs.length, topic, `${name}/poses.txt lines vs messages`, msgs.length, tum.length);
        let unresolved = 0;
        for (let i = 0; i < Math.min(tum.length, msgs.length); i++) {
          const l = tum[i];
          check(l.n === 8, topic, `${name}/poses.txt line ${i + 1}: 8 numbers (t tx ty tz qx qy qz qw)`, 8, l.n);
          stampCheck(topic, `${name}/poses.txt line ${i + 1} t`, msgs[i], l.t);
          check(Math.abs(Math.hypot(...l.pose.q) - 1) < 1e-6, topic, `${name}/poses.txt line ${i + 1}: unit quaternion`, 1, Math.hypot(...l.pose.q));
          // The sensor frame (not the optical one): TUM holds the sensor's pose.
          const at = lidarShift.has(topic) ? sToNs(l.t) : stampNs(msgs[i].msg.header.stamp);
          if (!poseCheck(topic, `${name}/poses.txt line ${i + 1}`, name, at, l.pose)) unresolved++;
        }
        if (unresolved > 1) warn(topic, `${unresolved} poses.txt lines past the end of /tf not compared`);
      }
    }

    for (const need of expect.files ?? []) {
      const applies = need === "camera_info.yaml" ? byTopic.has(`/${name}/camera_info`) : sensorTopics.has(name);
      if (applies) check(files.includes(need), `/${name}`, `${name}/${need} written beside the recording`, "present", "absent");
    }

    // -- files the recording has no counterpart of
    for (const f of files) {
      if (f === csvName || /^scan_\d+\.(pcd|ply)$/.test(f) || /^frame_\d+\.(png|npy)$/.test(f) || f === "camera_info.yaml" || f === "poses.txt" || f === `${folder}.nmea`) continue;
      warn(`/${name}`, `file ${name}/${f} not compared`);
    }
    if (files.some((f) => /^scan_\d+\.ply$/.test(f))) warn(`/${name}`, "PLY scans not compared");
    if (mainTopic === null && files.length && !c.left_out) warn(`/${name}`, "no frame files to compare");
    c.topic = mainTopic;
  }
}
