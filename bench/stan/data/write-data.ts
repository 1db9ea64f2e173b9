/**
 * Writes the data of bench/stan/ts-ode-ess.R (and bench/ts-ode-ess.ts reads the same modules):
 * arma11.json, garch11.json (T = 1000, simulated by bench/models/time-series.ts), lotka_volterra.json
 * (hudson_lynx_hare, from examples/lotka-volterra.ts) and pk_one_compartment.json
 * (examples/pk-one-compartment.ts), beside this script.
 *
 *   npx tsx bench/stan/data/write-data.ts
 */
import { writeFileSync } from 'node:fs';
import { ts, y, yInit } from '../../../examples/lotka-volterra.js';
import { concentrations, dose, times } from '../../../examples/pk-one-compartment.js';
import { armaData, garchData } from '../../models/time-series.js';

const write = (name: string, data: unknown) => {
  const file = new URL(`./${name}.json`, import.meta.url);
  writeFileSync(file, JSON.stringify(data) + '\n');
  console.log(`wrote ${file.pathname}`);
};
write('arma11', armaData());
write('garch11', garchData());
write('lotka_volterra', { N: ts.size, ts: ts.toArray(), y_init: yInit.toArray(), y: y.toArray() });
write('pk_one_compartment', { N: times.length, ts: times, dose, c: concentrations });
