// The OpenAPI document this client was generated from (tools/client/generate.ts).
export const OPENAPI_VERSION = "1.0.0";
export const OPENAPI_SHA256 = "3c44a05a2095a073a2a0dcb2a7252d0c22381e74c854f78af433c47070d744fc";
