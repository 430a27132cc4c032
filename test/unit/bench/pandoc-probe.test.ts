// The bench's child-process timer: wall time and, on Linux, the child's CPU time (the measure that
// survives a loaded machine; issue 20's cite-cold compares Citewise with pandoc by both).
import { describe, expect, it } from 'vitest';
import { childrenCpuMs, timedCpu } from '../../bench/probes/pandoc';

const linux = process.platform === 'linux';

describe('timedCpu', () => {
  it.runIf(linux)(
    'counts the CPU a child burns',
    async () => {
      const { cpu } = await timedCpu(
        process.execPath,
        ['-e', 'while (process.cpuUsage().user < 600_000);'],
        process.cwd(),
      );
      // It spins until it has used 600 ms of CPU itself, however loaded the machine (ticks are 10 ms).
      expect(cpu).toBeGreaterThanOrEqual(590);
    },
    60_000,
  );

  it.runIf(linux)(
    'does not count the time a child sleeps',
    async () => {
      const { wall, cpu } = await timedCpu(process.execPath, ['-e', 'setTimeout(() => {}, 1500)'], process.cwd());
      expect(wall).toBeGreaterThanOrEqual(1500);
      // Node's own start costs a few hundred ms at most, even on a loaded machine; the sleep costs nothing.
      expect(cpu).toBeLessThan(1000);
    },
    60_000,
  );

  it('rejects when the child fails, saying which', async () => {
    await expect(timedCpu(process.execPath, ['-e', 'process.exit(3)'], process.cwd())).rejects.toThrow(/exited with 3/);
  });

  it.runIf(linux)(
    'reads a running total that only grows',
    async () => {
      const before = childrenCpuMs()!;
      await timedCpu(process.execPath, ['-e', 'while (process.cpuUsage().user < 200_000);'], process.cwd());
      expect(childrenCpuMs()!).toBeGreaterThan(before);
    },
    60_000,
  );
});
