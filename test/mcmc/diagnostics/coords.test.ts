// coords and dims (ArviZ's/PyMC's names; issue 34 item 1) in the library: their checks
// (checkCoordsDims), ArviZ's labels (coordLabel; the CLI test compares them with az.summary's),
// `summary` rows labelled by coordinate, `windowedAdaptiveNuts` carrying them without touching
// the draws' bits and checking them before sampling, and `inferenceData` taking the run's.
import { describe, expect, it } from 'vitest';
import { key } from '../../../src/random/keys.js';
import { normal } from '../../../src/random/normal.js';
import type { Tensor } from '../../../src/index.js';
import { summary, windowedAdaptiveNuts } from '../../../mcmc/index.js';
import { checkCoordsDims, coordLabel } from '../../../mcmc/diagnostics/coords.js';
import { inferenceData, toDrawsCsv } from '../../../cli/report/index.js';
import { coords, dims, nonCentered, y } from '../../../examples/eight-schools.js';

const shapes = new Map<string, readonly number[] | undefined>([['alpha', [3]], ['beta', [2, 3]], ['later', undefined]]);

describe('checkCoordsDims', () => {
  const c = { group: ['a', 'b', 'c'], side: [1, 2] };
  it('accepts fitting coords and dims and returns frozen copies', () => {
    const out = checkCoordsDims('f', c, { alpha: ['group'], beta: ['side', 'group'], later: ['group'] }, shapes);
    expect(out).toEqual({ coords: c, dims: { alpha: ['group'], beta: ['side', 'group'], later: ['group'] } });
    expect(Object.isFrozen(out.coords!.group)).toBe(true);
    expect(checkCoordsDims('f', undefined, undefined, shapes)).toEqual({ coords: undefined, dims: undefined });
  });

  it('a dimension that does not fit: a RangeError naming the variable, the dimension and both sizes', () => {
    expect(() => checkCoordsDims('f', { group: ['a', 'b'] }, { alpha: ['group'] }, shapes))
      .toThrow(/^f: `dims\.alpha` gives axis 0 of `alpha` \(size 3\) dimension "group", which has 2 coordinates/);
    expect(() => checkCoordsDims('f', undefined, { alpha: ['k'], beta: ['k', 'group'] }, shapes))
      .toThrow(/`dims\.beta` gives dimension "k" size 2 \(axis 0 of `beta`\), but `alpha` gives it size 3/);
    expect(() => checkCoordsDims('f', undefined, { beta: ['group'] }, shapes)).toThrow(/`dims\.beta` must name 2 dimensions \(`beta` has event shape \[2, 3\]\)/);
    for (const f of [() => checkCoordsDims('f', c, { alpha: ['group', 'x'] }, shapes), () => checkCoordsDims('f', { group: ['a'] }, { alpha: ['group'] }, shapes)]) expect(f).toThrow(RangeError);
  });

  it('unknown variables, repeated labels or dimensions, and the chain/draw names are RangeErrors; wrong types TypeErrors', () => {
    expect(() => checkCoordsDims('f', undefined, { gamma: ['group'] }, shapes)).toThrow(/^f: `dims\.gamma` names `gamma`, which is not a variable \(alpha, beta, later\)/);
    expect(() => checkCoordsDims('f', { group: ['a', 'b', 'a'] }, undefined)).toThrow(/`coords\.group` must hold unique labels; "a" appears twice/);
    expect(() => checkCoordsDims('f', { side: [1, 1] }, undefined)).toThrow(RangeError);
    expect(() => checkCoordsDims('f', undefined, { beta: ['g', 'g'] })).toThrow(/names dimension "g" twice/);
    expect(() => checkCoordsDims('f', undefined, { alpha: ['chain'] })).toThrow(/must not name "chain"/);
    for (const bad of [null, 5, 'a', [['a']], { g: 'ab' }, { g: [null] }, { g: [NaN] }, { g: [{}] }, { g: [true] }]) {
      expect(() => checkCoordsDims('f', bad, undefined), String(bad)).toThrow(TypeError);
    }
    for (const bad of [null, 5, ['a'], { a: 'g' }, { a: [''] }, { a: [1] }]) expect(() => checkCoordsDims('f', undefined, bad), JSON.stringify(bad)).toThrow(TypeError);
  });
});

describe('coordLabel (az.summary\'s labels)', () => {
  it('a coordinate per axis with dims, the index without', () => {
    const cs = { group: ['a', 'b', 'c'], side: [1, 2] };
    expect(coordLabel('mu', [], 0, cs, { mu: [] })).toBe('mu');
    expect(coordLabel('alpha', [3], 2, cs, { alpha: ['group'] })).toBe('alpha[c]');
    expect(coordLabel('beta', [2, 3], 4, cs, { beta: ['side', 'group'] })).toBe('beta[2, b]');
    expect(coordLabel('beta', [2, 3], 4, cs, { beta: ['s', 'group'] })).toBe('beta[1, b]');   // a dimension without coordinates: its index
    expect(coordLabel('beta', [2, 3], 4)).toBe('beta[1, 1]');
  });
});

describe('summary with coords and dims', () => {
  const draws = { mu: normal(key(0), [40, 2]), alpha: normal(key(1), [40, 2, 3]), y: normal(key(2), [40, 2, 2]) };
  const cs = { group: ['a', 'b', 'c'], obs: [10, 20] };
  it('labels rows by coordinate; the same numbers as without', () => {
    const plain = summary(draws);
    const s = summary(draws, { coords: cs, dims: { alpha: ['group'], y: ['obs'], other: ['x'] } });   // `other` is not among the draws: left alone
    expect(s.rows.map((r) => r.name)).toEqual(['mu', 'alpha[a]', 'alpha[b]', 'alpha[c]', 'y[10]', 'y[20]']);
    expect(s.rows.map(({ name: _, ...r }) => r)).toEqual(plain.rows.map(({ name: _, ...r }) => r));
    expect(s.get('alpha[b]')!.mean).toBe(plain.get('alpha[1]')!.mean);
    expect(String(s)).toMatch(/^alpha\[c\]\s/m);
  });

  it('takes a result\'s coords and dims; options win; a misfit is a RangeError naming the variable', () => {
    const result = { draws, trace: {}, coords: cs, dims: { alpha: ['group'] } };
    expect(summary(result).rows[1]!.name).toBe('alpha[a]');
    expect(summary(result, { dims: {} }).rows[1]!.name).toBe('alpha[0]');
    expect(() => summary(draws, { coords: { group: ['a', 'b'] }, dims: { alpha: ['group'] } })).toThrow(/^summary: `dims\.alpha` gives axis 0 of `alpha` \(size 3\) dimension "group", which has 2 coordinates/);
    expect(() => summary(draws, { coords: { g: ['a', 'a'] } })).toThrow(RangeError);
    expect(() => summary(draws, { dims: { alpha: 'group' } as never })).toThrow(TypeError);
  });

  it('draws.csv labels its columns the same way', () => {
    const header = toDrawsCsv(draws, undefined, { coords: cs, dims: { alpha: ['group'] } }).split('\n')[0];
    expect(header).toBe('chain,draw,mu,alpha[a],alpha[b],alpha[c],y[0],y[1]');
    expect(() => toDrawsCsv(draws, undefined, { coords: cs, other: 1 } as never)).toThrow(/toDrawsCsv.*other/);
  });
});

describe('windowedAdaptiveNuts carries coords and dims', () => {
  const opts = { pins: { y }, seed: 4, nChains: 2, nDraws: 20, numAdaptationSteps: 30 } as const;
  const plain = windowedAdaptiveNuts(nonCentered, opts);
  const run = windowedAdaptiveNuts(nonCentered, { ...opts, coords, dims });

  it('on the result, checked, without changing a bit of the draws', () => {
    expect(run.coords).toEqual(coords);
    expect(run.dims).toEqual(dims);
    expect(plain.coords).toBeUndefined();
    for (const k of ['mu', 'tau', 'thetaTilde'] as const) expect((run.draws[k] as Tensor).data).toEqual((plain.draws[k] as Tensor).data);
    expect(summary(run).rows.map((r) => r.name)).toContain('thetaTilde[Mt. Hermon]');
    const more = windowedAdaptiveNuts(nonCentered, { pins: { y }, previous: run, nDraws: 5 });   // a continued run keeps them
    expect(more.dims).toEqual(dims);
    expect(more.coords).toEqual(coords);
  });

  it('inferenceData takes the run\'s coords and dims, and rejects dims of a variable the model lacks', () => {
    const idata = inferenceData(nonCentered, run, { pins: { y }, seed: 0, prior: 0, posteriorPredictive: false });
    expect(idata.coords).toEqual(coords);
    expect(idata.dims).toEqual(dims);
    expect(() => inferenceData(nonCentered, plain, { pins: { y }, prior: 0, dims: { thetaa: ['school'] } })).toThrow(/^inferenceData: `options\.dims\.thetaa` names `thetaa`, which is not a variable \(mu, tau, theta, thetaTilde, y\)/);
    expect(() => inferenceData(nonCentered, plain, { pins: { y }, prior: 0, coords: { school: ['a'] }, dims: { y: ['school'] } })).toThrow(/`options\.dims\.y` gives axis 0 of `y` \(size 8\) dimension "school", which has 1 coordinates/);
  });

  it('bad coords or dims fail before sampling, naming the variable and the dimension', () => {
    const fn = (o: object) => () => windowedAdaptiveNuts(nonCentered, { ...opts, nDraws: 1_000_000, ...o });   // would take minutes if it sampled
    expect(fn({ dims: { thetaTilde: ['school'] }, coords: { school: ['a', 'b'] } })).toThrow(/^windowedAdaptiveNuts: `dims\.thetaTilde` gives axis 0 of `thetaTilde` \(size 8\) dimension "school", which has 2 coordinates/);
    expect(fn({ dims: { y: ['school'] }, coords: { school: [1, 2, 3] } })).toThrow(/`dims\.y` gives axis 0 of `y` \(size 8\)/);   // a pinned node
    expect(fn({ dims: { sigma: ['school'] } })).toThrow(/`dims\.sigma` names `sigma`, which is not a variable \(mu, tau, theta, thetaTilde, y\)/);
    expect(fn({ coords: { school: ['a', 'a'] } })).toThrow(/`coords\.school` must hold unique labels/);
    expect(fn({ coords: [] })).toThrow(TypeError);
  });
});

it('a derived value whose dims do not fit is a RangeError after sampling', () => {
  expect(() => windowedAdaptiveNuts(nonCentered, { pins: { y }, seed: 4, nChains: 1, nDraws: 5, numAdaptationSteps: 5, dims: { theta: ['school', 'x'] } }))
    .toThrow(/`dims\.theta` must name 1 dimension \(`theta` has event shape \[8\]\)/);
});
