// The OpenAPI document this client was generated from (tools/client/generate.ts).
export const OPENAPI_VERSION = "1.0.0";
export const OPENAPI_SHA256 = "47768126a6df8356301757df3c67d7063d26b3a44d77944712a71b65365f3580";
