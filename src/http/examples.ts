// What the OpenAPI document's examples name: records of the demo dataset (seeds/demo) and the ids
// the demo account gets at its first start (src/start-up.ts), so that every example answers on
// `npm start` and in "Try it out". test/contract/examples.test.ts calls each one.

/** A TX salesperson with a current supervisor (a branch of 9089631-B since 2014-04-21) and an earlier one. */
export const DEMO_LICENCE = '406526-SA';
/** Its licence credential id: credentialId('TX', DEMO_LICENCE), a UUIDv5, the same at every load. */
export const DEMO_CREDENTIAL_ID = '8b36828c-74b5-5472-9ce0-5bdb65ad77ef';
/** A TX brokerage with 40 current affiliates. */
export const DEMO_BROKER = '9089631-B';
/** A FL sales associate, for the batch example. */
export const DEMO_FL_LICENCE = '0252165';
/** Names of DEMO_LICENCE's holder, for the name searches. */
export const DEMO_FIRST_NAME = 'Laura';
export const DEMO_LAST_NAME = 'Harris';
/** A licence number not on file, for the batch example's miss. */
export const DEMO_MISSING_LICENCE = '000000-SA';
/** A day inside the demo data's history. */
export const DEMO_DATE = '2024-06-30';

/** The demo account's verification record of DEMO_LICENCE, made at its first start (a call id: its low 7 bits are zero). */
export const DEMO_VERIFICATION_ID = '019ac5e0-0000-7000-8000-000000000000';
/** A review of DEMO_VERIFICATION_ID, made at the demo account's first start. */
export const DEMO_REVIEW_ID = '019ac5e0-0001-7000-8000-000000000000';
/** The demo account's roster job, made at its first start and finished by the job runner moments later. */
export const DEMO_JOB_ID = '5f1c2d3e-4b5a-4c6d-8e7f-000000000001';
/** The demo account's first API key id (a key id is not a secret: the raw key is). */
export const DEMO_KEY_ID = 'de000000-0000-4000-8000-000000000001';
/** The demo account's webhook endpoint, disabled (src/start-up.ts). */
export const DEMO_WEBHOOK_ID = 'we_de0000000000000000000001';
/** A delivery id no demo server has: deliveries come only from imports, to enabled endpoints. */
export const DEMO_DELIVERY_ID = 'msg_de000000000000000000000000000001';
/** IANA's documentation domain: resolves to public addresses, so an endpoint may point at it. */
export const DEMO_WEBHOOK_URL = 'https://example.com/webhooks/licences';
