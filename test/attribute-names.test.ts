import assert from "node:assert/strict";
import test from "node:test";
import { isShadowRootModeAt, keptNameAt } from "../src/render/attribute-names.ts";
import { lowerCased } from "../src/render/attributes.ts";
import { createRng } from "../src/ml/prng.ts";
import { KEPT_ATTRIBUTE_PREFIX, KEPT_ATTRIBUTES } from "../src/types.ts";

/** The filter keptNameAt reads in place, on a (lower-case) name: a kept name, or null. */
function keptName(name: string): string | null {
  return (KEPT_ATTRIBUTES as readonly string[]).includes(name) || name.startsWith(KEPT_ATTRIBUTE_PREFIX)
    ? name
    : null;
}

/** Names whose lower-casing is not ASCII folding, or is near a kept name. */
const TRICKY = [
  "İd",
  "ıd",
  "\u212Aind",
  "ſrc",
  "ſtyle",
  "ıtemprop",
  "arİa-x",
  "arıa-label",
  "aria-İ",
  "aria-",
  "aria",
  "ariA-Hidden",
  "ARIA-LABEL",
  "aria_label",
  "aria\r",
  "aria\rx",
  "a\rria-",
  "i\u0307d",
  "",
  "x",
  "classes",
  "clas",
  "c1ass",
  "CLASS",
  "hRef",
  "sRc",
  "data-src",
  "srcset",
  "rowSpan",
  "itemScope",
  "shadowRootMode",
  "SHADOWROOTMODE",
  "shadowrootmod",
  "shadowrootmodes",
  "é",
  "😀",
  "id😀",
  "{id",
  "@lt",
  "`d",
];

function allCasings(name: string, rng: ReturnType<typeof createRng>): string[] {
  const out = [name, name.toUpperCase()];
  for (let k = 0; k < 6; k++) out.push([...name].map((c) => (rng.int(2) ? c.toUpperCase() : c)).join(""));
  return out;
}

test("keptNameAt is keptName(lowerCased(name)) read in place: kept names in any case, tricky and random names", () => {
  const rng = createRng(7);
  const names = [...TRICKY];
  for (const kept of [...KEPT_ATTRIBUTES, "aria-label", "aria-hidden"]) names.push(...allCasings(kept, rng));
  const alphabet = "aAiIdDcClLsSrRtTyYeE-_:İıſ\u212Aé😀 \r=x";
  for (let k = 0; k < 20_000; k++) {
    let name = "";
    for (let n = 1 + rng.int(9); n > 0; n--) name += alphabet[rng.int(alphabet.length)];
    names.push(name);
  }
  for (const name of names) {
    const page = `<a ${name}=1>`;
    const got = keptNameAt(page, 3, 3 + name.length);
    assert.equal(got, keptName(lowerCased(name)), JSON.stringify(name));
    assert.equal(
      isShadowRootModeAt(page, 3, 3 + name.length),
      lowerCased(name) === "shadowrootmode",
      JSON.stringify(name),
    );
  }
});

test("keptNameAt returns the shared kept string", () => {
  const page = "CLASS";
  assert.ok(
    Object.is(
      keptNameAt(page, 0, 5),
      KEPT_ATTRIBUTES.find((n) => n === "class"),
    ),
  );
});
