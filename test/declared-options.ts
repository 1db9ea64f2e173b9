// The option names each exported class's constructor declares in its TypeScript type, read with
// the compiler API, for the tests that check the runtime accepts exactly those names.
import ts from 'typescript';

/**
 * For every class exported by the module at `index` whose runtime value (in `runtime`, the
 * imported module) passes `keep`: the property names of its constructor's first parameter type
 * (all union members). Builds one TypeScript program: seconds.
 */
export function declaredOptionNames(index: string, runtime: Record<string, unknown>, keep: (cls: unknown) => boolean): Map<string, Set<string>> {
  const program = ts.createProgram([index], {
    strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, types: ['node'],
  });
  const checker = program.getTypeChecker();
  const sf = program.getSourceFile(index)!;
  const out = new Map<string, Set<string>>();
  for (const exp of checker.getExportsOfModule(checker.getSymbolAtLocation(sf)!)) {
    const sym = exp.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exp) : exp;
    if (!(sym.flags & ts.SymbolFlags.Class) || !keep(runtime[exp.name])) continue;
    const declared = new Set<string>();
    for (const sig of checker.getTypeOfSymbolAtLocation(sym, sf).getConstructSignatures()) {
      const p = sig.getParameters()[0];
      if (p === undefined) continue;
      const t = checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(p, sf));
      for (const u of t.isUnion() ? t.types : [t]) for (const prop of checker.getPropertiesOfType(u)) declared.add(prop.name);
    }
    out.set(exp.name, declared);
  }
  return out;
}
