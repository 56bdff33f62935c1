#!/usr/bin/env node
// Thin shim: pith ships TypeScript sources and runs them through tsx's loader.
import { register } from "tsx/esm/api";
register();
await import("../src/cli/main.ts");
