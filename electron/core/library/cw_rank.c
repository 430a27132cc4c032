/*
 * cw_bm25: FTS5's bm25() with the same formula and the same results, but each row's length in tokens
 * comes from a per-connection cache instead of a lookup in the index's docsize table for every
 * matching row (measured at over half of bm25's cost on a broad word). The cache is emptied whenever
 * the database changed since the previous query (SQLITE_FCNTL_DATA_VERSION), so a length is only
 * reused while the data it was read from is unchanged.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1
#include <math.h>
#include <string.h>

typedef struct LenCache {
  unsigned int dataVersion; /* SQLITE_FCNTL_DATA_VERSION when the cache was last checked */
  sqlite3_int64 nRow;       /* the table's row and token counts then: another table, or other data */
  sqlite3_int64 nToken;
  int hasVersion;
  unsigned int gen;         /* current generation; an entry is valid when its gen matches */
  sqlite3_int64 size;       /* entries allocated */
  unsigned int *aGen;
  int *aLen;
} LenCache;

typedef struct RankData {
  int nPhrase;
  double avgdl;
  double *aIDF;
  double *aFreq;
} RankData;

static int countCb(const Fts5ExtensionApi *pApi, Fts5Context *pFts, void *pUser) {
  (void)pApi; (void)pFts;
  (*(sqlite3_int64 *)pUser)++;
  return SQLITE_OK;
}

static void checkVersion(LenCache *c, sqlite3 *db, sqlite3_int64 nRow, sqlite3_int64 nToken) {
  unsigned int v = 0;
  int known = sqlite3_file_control(db, "main", SQLITE_FCNTL_DATA_VERSION, &v) == SQLITE_OK;
  /* Start a new generation (nothing cached is valid) when the database changed, when that cannot be
  ** told, or when the table's totals differ (the function used on another FTS5 table). */
  if (!known || !c->hasVersion || v != c->dataVersion || nRow != c->nRow || nToken != c->nToken) {
    c->gen++;
    if (c->gen == 0) { /* wrapped: clear so that no stale entry matches */
      if (c->aGen) memset(c->aGen, 0, (size_t)c->size * sizeof(unsigned int));
      c->gen = 1;
    }
    c->dataVersion = v;
    c->hasVersion = known;
    c->nRow = nRow;
    c->nToken = nToken;
  }
}

static int getData(const Fts5ExtensionApi *pApi, Fts5Context *pFts, LenCache *cache, sqlite3 *db, RankData **pp) {
  int rc = SQLITE_OK;
  RankData *p = (RankData *)pApi->xGetAuxdata(pFts, 0);
  if (p == 0) {
    int nPhrase = pApi->xPhraseCount(pFts);
    sqlite3_int64 nRow = 0, nToken = 0;
    int i;
    p = (RankData *)sqlite3_malloc64(sizeof(RankData) + (sqlite3_int64)nPhrase * 2 * sizeof(double));
    if (p == 0) return SQLITE_NOMEM;
    memset(p, 0, sizeof(RankData) + (size_t)nPhrase * 2 * sizeof(double));
    p->nPhrase = nPhrase;
    p->aIDF = (double *)&p[1];
    p->aFreq = &p->aIDF[nPhrase];
    rc = pApi->xRowCount(pFts, &nRow);
    if (rc == SQLITE_OK) rc = pApi->xColumnTotalSize(pFts, -1, &nToken);
    if (rc == SQLITE_OK) p->avgdl = (double)nToken / (double)nRow;
    for (i = 0; rc == SQLITE_OK && i < nPhrase; i++) {
      sqlite3_int64 nHit = 0;
      rc = pApi->xQueryPhrase(pFts, i, (void *)&nHit, countCb);
      if (rc == SQLITE_OK) {
        double idf = log((nRow - nHit + 0.5) / (nHit + 0.5));
        if (idf <= 0.0) idf = 1e-6;
        p->aIDF[i] = idf;
      }
    }
    if (rc == SQLITE_OK) rc = pApi->xSetAuxdata(pFts, p, sqlite3_free);
    else sqlite3_free(p);
    if (rc != SQLITE_OK) return rc;
    checkVersion(cache, db, nRow, nToken); /* once per query */
  }
  *pp = p;
  return rc;
}

static int rowLength(const Fts5ExtensionApi *pApi, Fts5Context *pFts, LenCache *c, int *pn) {
  sqlite3_int64 id = pApi->xRowid(pFts);
  int rc;
  if (id >= 0 && id < c->size && c->aGen[id] == c->gen) {
    *pn = c->aLen[id];
    return SQLITE_OK;
  }
  rc = pApi->xColumnSize(pFts, -1, pn);
  if (rc != SQLITE_OK || id < 0 || id > 50000000) return rc;
  if (id >= c->size) {
    sqlite3_int64 n = c->size ? c->size : 1024;
    unsigned int *g;
    int *l;
    while (n <= id) n *= 2;
    g = (unsigned int *)sqlite3_realloc64(c->aGen, (sqlite3_uint64)n * sizeof(unsigned int));
    if (g == 0) return SQLITE_OK; /* no room: answer without caching */
    c->aGen = g;
    l = (int *)sqlite3_realloc64(c->aLen, (sqlite3_uint64)n * sizeof(int));
    if (l == 0) return SQLITE_OK;
    c->aLen = l;
    memset(&c->aGen[c->size], 0, (size_t)(n - c->size) * sizeof(unsigned int));
    c->size = n;
  }
  c->aGen[id] = c->gen;
  c->aLen[id] = *pn;
  return SQLITE_OK;
}

typedef struct Ctx { LenCache cache; sqlite3 *db; } Ctx;

static void cwBm25(const Fts5ExtensionApi *pApi, Fts5Context *pFts, sqlite3_context *pCtx, int nVal, sqlite3_value **apVal) {
  const double k1 = 1.2, b = 0.75;
  Ctx *ctx = (Ctx *)pApi->xUserData(pFts);
  RankData *p = 0;
  double score = 0.0, D = 0.0;
  int nInst = 0, i, rc = getData(pApi, pFts, &ctx->cache, ctx->db, &p);
  if (rc == SQLITE_OK) {
    memset(p->aFreq, 0, sizeof(double) * (size_t)p->nPhrase);
    rc = pApi->xInstCount(pFts, &nInst);
  }
  for (i = 0; rc == SQLITE_OK && i < nInst; i++) {
    int ip, ic, io;
    rc = pApi->xInst(pFts, i, &ip, &ic, &io);
    if (rc == SQLITE_OK) p->aFreq[ip] += (nVal > ic) ? sqlite3_value_double(apVal[ic]) : 1.0;
  }
  if (rc == SQLITE_OK) {
    int nTok = 0;
    rc = rowLength(pApi, pFts, &ctx->cache, &nTok);
    D = (double)nTok;
  }
  if (rc == SQLITE_OK) {
    for (i = 0; i < p->nPhrase; i++) score += p->aIDF[i] * ((p->aFreq[i] * (k1 + 1.0)) / (p->aFreq[i] + k1 * (1 - b + b * D / p->avgdl)));
    sqlite3_result_double(pCtx, -1.0 * score);
  } else {
    sqlite3_result_error_code(pCtx, rc);
  }
}

static void freeCtx(void *pv) {
  Ctx *c = (Ctx *)pv;
  sqlite3_free(c->cache.aGen);
  sqlite3_free(c->cache.aLen);
  sqlite3_free(c);
}

static fts5_api *ftsApi(sqlite3 *db) {
  fts5_api *pRet = 0;
  sqlite3_stmt *pStmt = 0;
  if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &pStmt, 0) == SQLITE_OK) {
    sqlite3_bind_pointer(pStmt, 1, (void *)&pRet, "fts5_api_ptr", 0);
    sqlite3_step(pStmt);
  }
  sqlite3_finalize(pStmt);
  return pRet;
}

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_cwrank_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi) {
  fts5_api *fts;
  Ctx *ctx;
  SQLITE_EXTENSION_INIT2(pApi);
  fts = ftsApi(db);
  if (fts == 0 || fts->iVersion < 2) {
    if (pzErrMsg) *pzErrMsg = sqlite3_mprintf("cw_rank: this SQLite has no FTS5");
    return SQLITE_ERROR;
  }
  ctx = (Ctx *)sqlite3_malloc(sizeof(Ctx));
  if (ctx == 0) return SQLITE_NOMEM;
  memset(ctx, 0, sizeof(Ctx));
  ctx->db = db;
  return fts->xCreateFunction(fts, "cw_bm25", (void *)ctx, cwBm25, freeCtx);
}
