/**
 * Imports every extractor file for its side effect of registering itself in src/extractors.ts.
 * One import line per algorithm file; add yours here.
 */
import "./content-extractor.ts";
import "./feature-extractor.ts";
import "./k-feature-extractor.ts";
import "./site-level.ts";
import "./cnr.ts";
import "./louvan.ts";
