/**
 * The report page of a simulation-based calibration run (`sbc`): the uniformity tests per
 * variable, an SBC rank histogram per variable (Talts et al. 2018's figure), and the warnings.
 */
import { checkOptions, fail } from '../../src/checks.js';
import type { SbcResult } from '../../mcmc/sbc.js';
import { sbcRankHistogram } from './plots/sbc-rank.js';
import { escapeXml } from './plots/svg.js';
import { CSS } from './report-html.js';

/**
 * One self-contained HTML page (inline CSS and SVG, no scripts) for an `sbc` result: a table of
 * each variable's χ² statistic, its p-value and the ECDF test's p-value, the rank histograms
 * (with the binomial 99% band), and the warnings (divergences, R-hat, ESS below the kept draws).
 *
 * @param result - what `sbc` returned.
 * @param options - `title` (default 'stochax sbc').
 * @throws {TypeError} for something that is not an `sbc` result, or an unknown option.
 * @example
 * import { sbcReportHtml } from 'stochax/report';
 * const r = sbc(model, { pins: ['y'], simulations: 200, thin: 5, sampler: { nChains: 1, nDraws: 100 } });
 * writeFileSync('sbc.html', sbcReportHtml(r));
 */
export function sbcReportHtml(result: SbcResult, options: { readonly title?: string } = {}): string {
  const FN = 'sbcReportHtml';
  const o = checkOptions(FN, options, ['title']);
  if (result === null || typeof result !== 'object' || !Array.isArray(result.variables) || typeof result.maxRank !== 'number') {
    fail('type', FN, 'result', 'must be what sbc() returns', result);
  }
  const title = o.title ?? 'stochax sbc';
  const S = result.backendDiagnostics.length;
  const p = (x: number) => (Number.isNaN(x) ? '' : x < 1e-4 ? x.toExponential(1) : x.toFixed(4));
  const rows = result.variables.map((v) => {
    const t = result.tests[v];
    return t === undefined ? `<tr><td class="name">${escapeXml(v)}</td><td></td><td></td><td></td><td></td></tr>`
      : `<tr><td class="name">${escapeXml(v)}</td><td>${t.bins}</td><td>${t.chiSquare.toFixed(2)}</td><td>${p(t.pValue)}</td><td>${p(t.ecdfPValue)}</td></tr>`;
  });
  const plots = result.variables.map((v) => `<figure>${sbcRankHistogram(result.ranks[v]!, result.maxRank, { name: v, ...(result.tests[v] === undefined ? {} : { bins: result.tests[v]!.bins }) })
    .replace(' xmlns="http://www.w3.org/2000/svg"', '')}</figure>`);
  const body = [
    `<header><h1>${escapeXml(title)}</h1><p class="lede">${S} simulations, ranks 0…${result.maxRank}</p></header>`,
    `<section id="warnings"><h2>Warnings</h2>${result.warnings.length === 0 ? '<p class="note">None.</p>'
      : `<ul class="warnings">${result.warnings.map((w) => `<li class="warn">[${escapeXml(w.kind)}] ${escapeXml(w.message)}</li>`).join('')}</ul>`}</section>`,
    `<section id="tests"><h2>Uniformity of ranks</h2><table><thead><tr><th class="name"></th><th>bins</th><th>χ²</th><th>p (χ²)</th><th>p (ECDF)</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
      + '<p class="note">Small p-values mean the ranks are not uniform: the posterior (model or sampler) is miscalibrated. A ∪ shape: too narrow; ∩: too wide; a slope: shifted.</p></section>',
    `<section id="ranks"><h2>Rank histograms</h2>${plots.join('')}</section>`,
  ];
  return `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n`
    + `<title>${escapeXml(title)}</title>\n<style>${CSS}</style>\n</head>\n<body>\n${body.join('\n')}\n</body>\n</html>\n`;
}
