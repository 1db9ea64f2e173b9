// examples/lotka-volterra.ts: posteriordb's hudson_lynx_hare-lotka_volterra fitted with
// windowedAdaptiveNuts (4 chains × (1000 + 1000), seed 0, Stan's defaults) through odeRk45 at
// Stan's settings. Every posterior mean is within 0.25 reference sd of posteriordb's (rstan,
// 10 × 1000 draws kept; test/fixtures/posteriordb/hudson_lynx_hare-lotka_volterra.json, made by
// extract.mjs). The run has bulk ESS ≥ 890 per quantity, so the mean's Monte Carlo error is
// ≲ 0.034 sd and 0.25 sd is > 7 MCSE (false failure < 1e-12 per quantity); the sd ratio check is
// [0.8, 1.25]; R-hat < 1.01 (a fixed seed: the same draws on every engine). ~30 s of CPU since
// the forward-only right-hand side (bench/ode.ts); a 400 + 400 run gave R-hat 1.01 at ESS ~320.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fit } from '../../examples/lotka-volterra.js';

const fixture = JSON.parse(readFileSync(new URL('../fixtures/posteriordb/hudson_lynx_hare-lotka_volterra.json', import.meta.url), 'utf8')) as {
  reference: Record<string, { mean: number; sd: number }>;
};

describe('examples/lotka-volterra.ts', () => {
  it('posterior means within 0.25 sd of posteriordb\'s reference', { timeout: 1_800_000 }, () => {
    const f = fit();
    console.log(`lotka-volterra: ${f.seconds.toFixed(1)} s, rejections ${f.rejections}, divergences ${f.divergences}`);
    console.log(f.summary.format());
    for (const [name, ref] of Object.entries(fixture.reference)) {
      const mean = f.means[name]!, sd = f.sds[name]!;
      expect(Math.abs(mean - ref.mean) / ref.sd, `${name}: ${mean} vs ${ref.mean} (sd ${ref.sd})`).toBeLessThan(0.25);
      expect(sd / ref.sd, `${name}: sd ${sd} vs ${ref.sd}`).toBeGreaterThan(0.8);
      expect(sd / ref.sd, `${name}: sd ${sd} vs ${ref.sd}`).toBeLessThan(1.25);
    }
    expect(f.summary.rows.every((r) => r.rHat < 1.01)).toBe(true);
  });
});
