import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ChildMessage, LoadPlan, ParentMessage, ScenarioResult } from './protocol.js';

/**
 * Runs the plan in the load-client child process and collects one result per scenario, in plan
 * order. The child is killed when it overruns the deadline, so the benchmark always ends by itself.
 */
export function runLoad(plan: LoadPlan, deadlineSeconds: number, progress: (scenario: string) => void): Promise<ScenarioResult[]> {
  // fork() passes this process's exec arguments on, tsx's loader among them.
  const child = fork(fileURLToPath(new URL('./load-client.ts', import.meta.url)));
  const results: ScenarioResult[] = [];
  return new Promise<ScenarioResult[]>((resolve, reject) => {
    let finished = false;
    const finish = (error?: Error) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      // After `done` the child exits by itself; otherwise it is stopped here.
      if (error && child.exitCode === null) child.kill();
      if (error) reject(error);
      else resolve(results);
    };
    const timer = setTimeout(() => finish(new Error(`load did not finish within ${deadlineSeconds} s`)), deadlineSeconds * 1000);
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'started') progress(message.scenario);
      if (message.type === 'result') results.push(message.result);
      if (message.type === 'done') finish();
      if (message.type === 'failed') finish(new Error(`load client failed: ${message.error}`));
    });
    child.on('error', (err) => finish(err));
    child.on('exit', (code) => finish(new Error(`load client exited (${code}) before finishing`)));
    const run: ParentMessage = { type: 'run', plan };
    child.send(run);
  });
}
