import { describe, expect, it } from 'vitest';
import { EngineFailedError, EngineMissingError, EngineTimeoutError } from '../../src/engines/errors.js';
import { runProcess } from '../../src/engines/process.js';

describe('runProcess', () => {
  it('feeds stdin and returns stdout and stderr', async () => {
    const result = await runProcess('sh', ['-c', 'tr a-z A-Z; echo note >&2'], {
      input: Buffer.from('invoice 17'),
      timeoutMs: 10_000,
    });
    expect(result.stdout.toString()).toBe('INVOICE 17');
    expect(result.stderr).toBe('note\n');
  });

  it('reports a failing exit with its stderr', async () => {
    const failure = runProcess('sh', ['-c', 'echo "Invalid data found" >&2; exit 3'], { timeoutMs: 10_000 });
    await expect(failure).rejects.toBeInstanceOf(EngineFailedError);
    await expect(failure).rejects.toMatchObject({ binary: 'sh', exitCode: 3, stderr: 'Invalid data found\n' });
  });

  it('kills a process that runs past its timeout', async () => {
    await expect(runProcess('sleep', ['30'], { timeoutMs: 200 })).rejects.toBeInstanceOf(EngineTimeoutError);
  });

  it('reports a binary that is not installed', async () => {
    await expect(runProcess('no-such-engine-binary', [], { timeoutMs: 1_000 })).rejects.toEqual(
      new EngineMissingError('no-such-engine-binary'),
    );
  });

  it('survives a child that exits without reading its input', async () => {
    const failure = runProcess('sh', ['-c', 'exit 2'], { input: Buffer.alloc(4 * 1024 * 1024), timeoutMs: 10_000 });
    await expect(failure).rejects.toMatchObject({ exitCode: 2 });
  });
});
