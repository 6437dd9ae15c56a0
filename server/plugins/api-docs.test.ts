import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the API reference', () => {
  it('serves Swagger UI at /api/docs to anyone, under the same strict headers as every page', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('swagger-ui-bundle.js');
    // No inline script: the page works under script-src 'self'.
    expect(page.body).not.toMatch(/<script>(?!\s*<\/script>)/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const asset = await t.app.inject({ method: 'GET', url: '/api/docs/static/swagger-initializer.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toContain("resolveUrl('./json')"); // /api/docs/json, relative to the page
  });

  it('describes the API in OpenAPI at /api/docs/json, without the reference pages themselves', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/students', '/api/attendance/submit', '/api/courses/bulk-upload']));
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/api/docs'))).toBe(false);
  });

  it('opens nothing else: a data route beside it still needs a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/docs/../users' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/docs/users' })).statusCode).toBe(404);
  });
});
