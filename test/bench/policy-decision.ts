// Policy decision time against a generated document (default 500 rules):
//   npm run bench:policy            or   node build/test/bench/policy-decision.js [rules] [--json]
// Prints the median and p99 time of one decision, for callers the engine has seen (the steady state of a
// server) and for callers it has not, where a decision first narrows the rules for its (tool, caller class).
import { readPolicyDocument } from '../../plugins/policy/document/policy-document.js';
import type { CallFacts } from '../../plugins/policy/engine/call-facts.js';
import { PolicyEngine } from '../../plugins/policy/engine/policy-engine.js';
import { generatePolicy, random, randomFacts } from './policy-rules.js';

export interface PolicyBenchResult {
  rules: number;
  warm: { medianUs: number; p99Us: number };
  unseenCaller: { medianUs: number; p99Us: number };
  decisions: number;
}

const BATCH = 1000;
const BATCHES = 60;
const COLD_BATCHES = 28;

/** Median and 99th percentile of the per-decision time over batches (a batch smooths timer resolution). */
function timeBatches(engine: PolicyEngine, batches: CallFacts[][]): { medianUs: number; p99Us: number } {
  const perDecision: number[] = [];
  let sink = 0;
  for (const batch of batches) {
    const started = process.hrtime.bigint();
    for (const facts of batch) sink += engine.decide(facts).effect.length;
    perDecision.push(Number(process.hrtime.bigint() - started) / batch.length / 1000);
  }
  if (sink === 0) throw new Error('unreachable: keeps the decisions from being optimised away');
  perDecision.sort((a, b) => a - b);
  const at = (q: number): number => Math.round(perDecision[Math.min(perDecision.length - 1, Math.floor(q * perDecision.length))]! * 1000) / 1000;
  return { medianUs: at(0.5), p99Us: at(0.99) };
}

export function benchPolicy(ruleCount = 500): PolicyBenchResult {
  const engine = new PolicyEngine(readPolicyDocument(generatePolicy(ruleCount), 'generated.yaml'));
  const next = random(42);
  const make = (subjects: number, batches = BATCHES): CallFacts[][] =>
    Array.from({ length: batches }, () => Array.from({ length: BATCH }, () => randomFacts(next, subjects)));
  // 100 callers: after warm-up every (tool, caller) pair is narrowed already.
  const warm = make(100);
  for (const batch of warm.slice(0, 10)) for (const facts of batch) engine.decide(facts);
  const warmResult = timeBatches(engine, warm);
  // Callers the engine has not seen, each named by the document in a new way (subject, team and release
  // group): each decision first narrows the rules for its (tool, caller class).
  // 100 subjects x 40 teams x 7 release groups: 28,000 classes, none seen twice.
  const fresh = make(100, COLD_BATCHES).map((batch, b) =>
    batch.map((facts, i) => {
      const k = b * BATCH + i;
      return { ...facts, subject: `user-${k % 100}`, groups: [`team-${Math.floor(k / 100) % 40}`, `release-${Math.floor(k / 4000) % 7}`] };
    }),
  );
  const coldResult = timeBatches(new PolicyEngine(engine.policy), fresh);
  return { rules: ruleCount, warm: warmResult, unseenCaller: coldResult, decisions: BATCH * (BATCHES + COLD_BATCHES) };
}

if (process.argv[1]?.endsWith('policy-decision.js')) {
  const count = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 500);
  const result = benchPolicy(count);
  if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(result)}\n`);
  else {
    process.stdout.write(`policy decision, ${result.rules} rules (${result.decisions} decisions)\n`);
    process.stdout.write(`  seen caller:      median ${result.warm.medianUs} us, p99 ${result.warm.p99Us} us\n`);
    process.stdout.write(`  unseen caller:    median ${result.unseenCaller.medianUs} us, p99 ${result.unseenCaller.p99Us} us\n`);
  }
}
