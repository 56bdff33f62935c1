/**
 * A Vega-Lite chart (compiled to Vega, drawn as SVG); `onClick` hears the datum of a clicked mark.
 * Vega's expressions run in vega-interpreter over their parsed ASTs (`ast: true`) instead of
 * being compiled with `Function`, so the UI's CSP needs no 'unsafe-eval'
 * (https://vega.github.io/vega/usage/interpreter).
 */
import { useEffect, useRef } from "preact/hooks";
import { compile, type TopLevelSpec } from "vega-lite";
import { parse, View } from "vega";
import { expressionInterpreter } from "vega-interpreter";

export function Chart(props: {
  spec: TopLevelSpec;
  id: string;
  onClick?: (datum: Record<string, unknown>) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current) return;
    const view = new View(parse(compile(props.spec).spec, undefined, { ast: true }), {
      expr: expressionInterpreter,
      renderer: "svg",
      container: box.current,
      hover: true,
    });
    if (props.onClick)
      view.addEventListener("click", (_e, item) => {
        const datum = (item as { datum?: Record<string, unknown> } | null)?.datum;
        if (datum) props.onClick?.(datum);
      });
    void view.runAsync();
    return () => view.finalize();
  }, [props.spec]);
  return <div class="chart" id={props.id} ref={box} />;
}
