// The bare Express 5 ceiling of the national benchmark: one JSON route, no middleware.
import express from 'express';

const app = express();
app.get('/hello', (_req, res) => res.json({ hello: 'world' }));
app.listen(Number(process.env.PORT), '127.0.0.1');
