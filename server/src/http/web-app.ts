import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Module } from '../lifecycle/module.js';
import { HttpError } from './errors.js';
import type { HttpApp } from './http-app.js';
import { noQuery } from './validation.js';

/** Paths that belong to the server, never to the single-page app. */
const SERVER_PREFIXES = ['/api/', '/ws/', '/healthz'];

const isServerPath = (url: string) =>
  SERVER_PREFIXES.some((prefix) => url === prefix.replace(/\/$/, '') || url.startsWith(prefix));

/** The built web app as the last module: its file routes and the not-found answer come after every API. */
export function webAppModule(webRoot: string | undefined): Module {
  return { name: 'web-app', register: (app) => registerWebApp(app, webRoot) };
}

const fileParams = z.object({ '*': z.string() });

/**
 * Serves the built web app: hashed assets cached for a year, index.html never cached, and
 * every other GET for an HTML page falls back to index.html so client routes work on reload.
 */
export async function registerWebApp(app: HttpApp, webRoot: string | undefined) {
  const indexFile = webRoot ? path.join(webRoot, 'index.html') : undefined;
  const hasApp = indexFile !== undefined && fs.existsSync(indexFile);
  if (webRoot && hasApp) {
    // The plugin only sends files; the route is ours, so it has a schema like every other.
    await app.register(fastifyStatic, {
      root: webRoot,
      serve: false,
      index: false,
      cacheControl: false,
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        // The service worker and the manifest: a new release reaches installed apps at once.
        const fresh = /(^|[\\/])(sw\.js|manifest\.webmanifest)$/.test(filePath);
        res.setHeader(
          'cache-control',
          immutable ? 'public, max-age=31536000, immutable' : fresh ? 'no-cache' : 'public, max-age=300',
        );
      },
    });
  } else {
    app.log.warn({ webRoot }, 'web app is not built; only the API is served');
  }

  // The handlers send and return nothing: a returned reply is a thenable Fastify waits on, and each
  // wait adds "close" listeners to the response. A page route goes through the file route and then
  // the not-found handler; with the file stream's own listeners that made 11, and a
  // MaxListenersExceededWarning in the log on every load of a page other than /.
  const sendIndex = (reply: FastifyReply): void => {
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html');
  };

  if (hasApp) {
    app.get('/', { schema: { querystring: noQuery } }, (_request, reply) => sendIndex(reply));
    app.get('/*', { schema: { params: fileParams, querystring: noQuery } }, (request, reply) => {
      reply.sendFile(request.params['*']);
    });
  }

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const wantsPage =
      hasApp &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isServerPath(pathname) &&
      !pathname.startsWith('/assets/') &&
      path.extname(pathname) === '';
    if (wantsPage) return sendIndex(reply);
    throw new HttpError(404, 'Not found');
  });
}
