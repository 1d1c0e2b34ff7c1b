'use strict';
// CPU per process kind while a figure is measured, from /proc (Linux): each hop's cost, as
// percent of one core. Processes are told apart by their command line: an app of this
// repository, a bench baseline, the Kafka broker, PostgreSQL, Redis, and this load generator.
const fs = require('node:fs');
const os = require('node:os');

const TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux this runs on

/** [part of a command line, label]: processes a bench names itself (two brokers told apart, say). */
const named = [];

/** Labels the processes whose command line holds `commandLinePart` as `label` (before the kinds below). */
function nameProcesses(commandLinePart, label) {
  named.push([commandLinePart, label]);
}

function labelOf(pid, cmdline, comm) {
  if (pid === process.pid) return 'load generator';
  const own = named.find(([part]) => cmdline.includes(part));
  if (own) return own[1];
  const app = /apps\/([\w-]+)\/dist\/main\.js/.exec(cmdline);
  if (app) return app[1];
  const baseline = /bench\/(baseline-[\w-]+)\.js/.exec(cmdline);
  if (baseline) return baseline[1];
  if (cmdline.includes('kafka.Kafka')) return 'Kafka broker';
  if (comm === 'postgres' || comm.startsWith('postgres')) return 'PostgreSQL';
  if (comm.startsWith('redis-server')) return 'Redis';
  return null;
}

function readFile(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null; // the process is gone
  }
}

/**
 * Every process's `/proc/<pid>/stat`: its pid, command name and the fields after the name
 * (`fields[0]` is the state, field 3 of proc(5): `fields[1]` the parent, `fields[2]` the
 * process group, `fields[11]` to `fields[14]` utime, stime, cutime and cstime in ticks).
 * A process that ends while this reads is left out.
 */
function* processStats() {
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readFile(`/proc/${name}/stat`);
    if (!stat) continue;
    const close = stat.lastIndexOf(')');
    yield { pid: Number(name), comm: stat.slice(stat.indexOf('(') + 1, close), fields: stat.slice(close + 2).split(' ') };
  }
}

/** Ticks (user + system) per pid, for the processes of interest. */
function snapshot() {
  const byPid = new Map();
  for (const { pid, comm, fields } of processStats()) {
    const label = labelOf(pid, (readFile(`/proc/${pid}/cmdline`) ?? '').replace(/\0/g, ' '), comm);
    if (!label) continue;
    byPid.set(pid, { label, ticks: Number(fields[11]) + Number(fields[12]) }); // utime, stime
    // A baseline script this process ran and reaped is gone from /proc; its time is here.
    if (pid === process.pid) byPid.set(`${pid}:children`, { label: 'bench child (exited)', ticks: Number(fields[13]) + Number(fields[14]) }); // cutime, cstime
  }
  return byPid;
}

function machineTicks() {
  const cpu = readFile('/proc/stat').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = cpu[3] + cpu[4];
  return { busy: cpu.reduce((a, b) => a + b, 0) - idle };
}

/** Starts counting; `stop()` answers `{ label: percent of one core }` plus `machine` (all cores). */
function startCpu() {
  const before = snapshot();
  const machineBefore = machineTicks();
  const t0 = process.hrtime.bigint();
  return {
    stop() {
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      const after = snapshot();
      const used = {};
      for (const [pid, { label, ticks }] of after) {
        // A process started during the window counts from zero.
        used[label] = (used[label] ?? 0) + ticks - (before.get(pid)?.ticks ?? 0);
      }
      const percent = {};
      for (const [label, ticks] of Object.entries(used).sort((a, b) => b[1] - a[1])) {
        percent[label] = (100 * ticks) / TICKS_PER_SECOND / seconds;
      }
      percent.machine = (100 * (machineTicks().busy - machineBefore.busy)) / TICKS_PER_SECOND / seconds;
      return percent;
    },
  };
}

/** Each process's reading (those at 0.5% of a core or more), then the machine's, each shown by `show`. */
function formatReadings(percent, show, machineNote = '') {
  const { machine, ...rest } = percent;
  const parts = Object.entries(rest)
    .filter(([, p]) => p >= 0.5)
    .map(([label, p]) => `${label} ${show(p)}`);
  return `${parts.join(', ')} (machine ${show(machine)}${machineNote})`;
}

/** "gateway 67%, PostgreSQL 45%, … (machine 190% of 200%)". */
function formatCpu(percent) {
  if (!percent) return 'n/a';
  return formatReadings(percent, (p) => `${p.toFixed(0)}%`, ` of ${os.availableParallelism() * 100}%`);
}

/**
 * The same readings as ms of CPU per item done (a task, a trace): what each process costs
 * an item, comparable between runs of different speeds where shares of a core are not.
 */
function formatCpuPerItem(percent, itemsPerSecond) {
  if (!percent || !(itemsPerSecond > 0)) return 'n/a';
  return formatReadings(percent, (p) => (((p / 100) * 1000) / itemsPerSecond).toFixed(3));
}

module.exports = { startCpu, formatCpu, formatCpuPerItem, nameProcesses, processStats, TICKS_PER_SECOND };
