#!/usr/bin/env node
// The `tokenpool` command: runs cli/main.ts through tsx's loader (no build step).
import { register } from "tsx/esm/api";

register();
await import("../cli/main.ts");
