// Compile JSON Schemas with ajv in strict mode and validate documents against them
// (tests/cli/test_schemas.py). Usage: node ajv_check.cjs SCHEMA.json [DATA.json ...]
// Each DATA file is validated against SCHEMA; prints "ok" or the errors, exit 1.
"use strict";
const fs = require("fs");
const Ajv2020 = require("ajv/dist/2020").default;

const ajv = new Ajv2020({ strict: true, allErrors: true });
const [schemaFile, ...dataFiles] = process.argv.slice(2);
let validate;
try {
  validate = ajv.compile(JSON.parse(fs.readFileSync(schemaFile, "utf8")));
} catch (error) {
  console.log(`${schemaFile}: ${error.message}`);
  process.exit(1);
}
let failed = false;
for (const file of dataFiles) {
  if (!validate(JSON.parse(fs.readFileSync(file, "utf8")))) {
    console.log(`${file}: ${ajv.errorsText(validate.errors)}`);
    failed = true;
  }
}
if (failed) process.exit(1);
console.log("ok");
