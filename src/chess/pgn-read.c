/*
 * The PGN reader (tchess/pgn.h says what it accepts and the decisions
 * taken): a small state machine over the tokens of one game at a time;
 * after an error it skips to where the next game starts. Nothing here
 * recurses or rescans, so the work stays linear in the input whatever
 * bytes it holds.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgn-internal.h"
#include "tchess/fen.h"
#include "tchess/movegen.h"

/* A line being read: the main line (depth 0) or a variation open inside
 * the one below it. */
struct frame {
	struct pgn_move **moves;   /* the line's moves, their count and room */
	size_t *n, *cap;
	char **comment_start;      /* where comments before its first move go */
	struct position pos;       /* after its last move */
	struct position before;    /* before its last move: where a variation starts */
};

struct ctx {
	struct pgn_reader *r;
	struct pgn_game *g;
	struct pgn_error *err;
	struct pgn_lexer lx;  /* the tokenizer; lx.text: the current token's unescaped text */
	struct pgn_sbuf comment;  /* comments of the last move (or the line's start) */
	bool setup_done;
	bool any;             /* something of this game was read */
	int depth;            /* variations open */
	int skip;             /* > 0: passing over a variation with a bad move, that many '(' deep */
	struct frame lines[PGN_RAV_DEPTH_MAX + 1];
	size_t fen_off, variant_off;
	size_t game_start;
};

/* The line read now, and its last move (NULL before its first). */
static struct frame *top(struct ctx *c)
{
	return &c->lines[c->depth];
}

static struct pgn_move *last_move(struct ctx *c)
{
	struct frame *f = top(c);
	return *f->n ? &(*f->moves)[*f->n - 1] : NULL;
}

/* ---- locations and errors ---- */

static void locate(struct pgn_reader *r, size_t off, size_t *line, size_t *col)
{
	if (off > r->len)
		off = r->len;
	if (off < r->lc_off) {
		r->lc_off = 0;
		r->lc_line = 1;
		r->lc_col = 1;
	}
	const char *b = r->buf;
	for (size_t i = r->lc_off; i < off; i++) {
		if (b[i] == '\n') {
			if (i > 0 && b[i - 1] == '\r')
				continue; /* second half of CRLF */
			r->lc_line++;
			r->lc_col = 1;
		} else if (b[i] == '\r') {
			r->lc_line++;
			r->lc_col = 1;
		} else {
			r->lc_col++;
		}
	}
	r->lc_off = off;
	*line = r->lc_line;
	*col = r->lc_col;
}

static void set_error(struct ctx *c, size_t off, enum tchess_err code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void set_error(struct ctx *c, size_t off, enum tchess_err code, const char *fmt, ...)
{
	size_t line, col;
	char why[200];
	va_list ap;

	if (!c->err)
		return;
	locate(c->r, off, &line, &col);
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	c->err->code = code;
	c->err->game = c->r->games;
	c->err->offset = off;
	c->err->line = line;
	c->err->col = col;
	snprintf(c->err->message, sizeof c->err->message, "game %zu, line %zu, column %zu: %s", c->r->games + 1,
		 line, col, why);
}

static unsigned movenum_value(const struct pgn_reader *r, const struct pgn_token *t);

/* Skips the rest of a bad game, starting at from: up to and including its
 * termination marker, or up to where the next game plainly starts: a tag
 * pair that starts a line after an empty line (or is an Event tag), or an
 * empty line then a move number lower than the one the game stopped at
 * (a game with no tags and no marker of its own after it; else its marker
 * would be taken as the bad game's and the game lost). */
static void resync(struct ctx *c, size_t from)
{
	struct pgn_reader *r = c->r;
	struct pgn_token t;
	int depth = c->depth;
	r->pos = from;
	for (;;) {
		size_t before = r->pos;
		pgn_lexer_next(&c->lx, &t);
		if (t.type == PGN_T_EOF)
			break;
		if (t.type == PGN_T_LPAREN)
			depth++;
		if (t.type == PGN_T_RPAREN && depth > 0)
			depth--;
		if (depth == 0 && (t.type == PGN_T_STAR || (t.type == PGN_T_SYMBOL && pgn_is_result(c->lx.text.p))))
			break;
		if (depth == 0 && t.type == PGN_T_MOVENUM && t.blank_before && c->g->n_moves > 0 &&
		    movenum_value(r, &t) < c->lines[0].pos.fullmove) {
			r->pos = t.start;
			break;
		}
		if (t.type == PGN_T_LBRACKET && t.line_start && t.start > c->game_start &&
		    (t.blank_before || (r->len - t.start >= 6 && !memcmp(r->buf + t.start, "[Event", 6)))) {
			r->pos = t.start;
			break;
		}
		if (t.type == PGN_T_BAD_STRING && r->pos == before)
			r->pos++;
	}
	if (r->pos <= c->game_start)
		r->pos = c->game_start + 1;
}

/* ---- reading ---- */

void pgn_reader_init(struct pgn_reader *r, const char *buf, size_t len)
{
	memset(r, 0, sizeof *r);
	r->buf = buf;
	r->len = buf ? len : 0;
	r->lc_line = 1;
	r->lc_col = 1;
}

static bool ieq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a, y = *b;
		if (x >= 'A' && x <= 'Z')
			x = (char)(x - 'A' + 'a');
		if (y >= 'A' && y <= 'Z')
			y = (char)(y - 'A' + 'a');
		if (x != y)
			return false;
	}
	return *a == *b;
}

/* Moves the collected comment into its owner: the last move of the line
 * read now, or the line's start (after any comment already there). */
static bool flush_comment(struct ctx *c)
{
	if (c->comment.len == 0)
		return true;
	struct pgn_move *pm = last_move(c);
	char **slot = pm ? &pm->comment : top(c)->comment_start;
	char *s = pgn_sb_take(&c->comment);
	if (!s)
		return false;
	pgn_squeeze(s);
	if (pm) {
		pgn_take_commands(s, &pm->clock_ms, &pm->eval);
		pgn_squeeze(s);
	}
	if (!*s) {
		free(s);
		return true;
	}
	if (*slot) {
		struct pgn_sbuf both = { 0 };
		bool ok = pgn_sb_put(&both, *slot, strlen(*slot)) && pgn_sb_putc(&both, ' ') &&
			  pgn_sb_put(&both, s, strlen(s));
		free(s);
		if (!ok) {
			pgn_sb_free(&both);
			return false;
		}
		s = pgn_sb_take(&both);
		free(*slot);
	}
	*slot = s;
	return true;
}

static bool add_comment(struct ctx *c, const char *text, size_t len)
{
	if (c->comment.len && !pgn_sb_putc(&c->comment, ' '))
		return false;
	return pgn_sb_put(&c->comment, text, len);
}

static void add_nag(struct pgn_move *m, int nag)
{
	if (m->n_nags < PGN_NAGS_MAX)
		m->nags[m->n_nags++] = (uint8_t)nag;
}

/* Whether castling right i (K, Q, k, q) of p is held with its king or rook
 * off the standard square. */
static bool off_standard(const struct position *p, int i)
{
	int back = i < 2 ? 0 : 7;
	return (p->castling & (1u << i)) && (position_king(p, i < 2 ? WHITE : BLACK) != make_sq(4, back) ||
					     p->castle_rook[i] != make_sq(i % 2 ? 0 : 7, back));
}

/* Applies the FEN and Variant tags; false (error set) if they are bad. */
static bool setup(struct ctx *c)
{
	struct pgn_game *g = c->g;
	const char *variant = pgn_game_tag(g, "Variant");
	const char *fen = pgn_game_tag(g, "FEN");
	bool c960 = false;
	struct tchess_error e;

	c->setup_done = true;
	char vbuf[64];
	if (variant) {
		size_t a = 0, z = strlen(variant);
		while (a < z && variant[a] == ' ')
			a++;
		while (z > a && variant[z - 1] == ' ')
			z--;
		snprintf(vbuf, sizeof vbuf, "%.*s", (int)(z - a < 63 ? z - a : 63), variant + a);
		variant = vbuf;
	}
	if (variant) {
		static const char *const standard[] = { "", "standard", "chess", "regular", "from position",
							"normal", "classical" };
		static const char *const fischer[] = { "chess960", "chess 960", "fischerandom", "fischer random",
						       "fischerrandom", "960", "chess-960" };
		bool known = false;
		for (size_t i = 0; i < sizeof standard / sizeof standard[0]; i++)
			known = known || ieq(variant, standard[i]);
		for (size_t i = 0; i < sizeof fischer / sizeof fischer[0]; i++)
			if (ieq(variant, fischer[i]))
				known = c960 = true;
		if (!known) {
			set_error(c, c->variant_off, TCHESS_ERR_PGN_SYNTAX, "unsupported variant \"%.60s\"", variant);
			return false;
		}
	}
	if (fen) {
		size_t a = 0, z = strlen(fen);
		while (a < z && fen[a] == ' ')
			a++;
		while (z > a && fen[z - 1] == ' ')
			z--;
		if (z > a) {
			if (fen_parse_n(&g->start, fen + a, z - a, &e) != TCHESS_OK) {
				set_error(c, c->fen_off, e.code, "FEN tag: %s", e.message);
				return false;
			}
		} else {
			fen = NULL;
		}
	}
	if (c960) {
		if (!fen) {
			set_error(c, c->variant_off, TCHESS_ERR_PGN_SYNTAX, "a Chess960 game needs a FEN tag");
			return false;
		}
		g->start.chess960 = true;
	} else if (g->start.chess960) {
		/* fen_parse() reads a right whose king or rook is off its
		 * standard square as Chess960 castling. Standard chess has no
		 * such right (Lichess studies carry stale ones, "KQq" with the
		 * black king on g8): it is dropped, so O-O there is illegal. */
		for (int i = 0; i < 4; i++) {
			if (off_standard(&g->start, i)) {
				g->start.castling &= (uint8_t)~(1u << i);
				g->start.castle_rook[i] = SQ_NONE;
			}
		}
		g->start.chess960 = false;
		position_refresh(&g->start, g->start.ep);
	}
	c->lines[0].pos = g->start;
	return true;
}

static bool looks_uci(const char *s)
{
	size_t n = strlen(s);
	if (n != 4 && n != 5)
		return false;
	if (s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' || s[2] < 'a' || s[2] > 'h' || s[3] < '1' ||
	    s[3] > '8')
		return false;
	return n == 4 || strchr("qrbn", s[4]) != NULL;
}

/* Plays the SAN (or null move) in c->lx.text; false (error set) if bad. */
static bool play_move(struct ctx *c, const struct pgn_token *t)
{
	struct frame *f = top(c);
	struct position *pos = &f->pos;
	char *s = c->lx.text.p;
	size_t n = c->lx.text.len;
	int suffix = -1;
	move m = MOVE_NONE;
	struct tchess_error e;
	char num[40];

	snprintf(num, sizeof num, "%s%u%s", c->depth ? "in a variation, " : "", pos->fullmove,
		 pos->side == WHITE ? "." : "...");
	if (*f->n >= PGN_PLIES_MAX) {
		set_error(c, t->start, TCHESS_ERR_RANGE, "more than %d plies", PGN_PLIES_MAX);
		return false;
	}
	if (t->too_long) {
		set_error(c, t->start, TCHESS_ERR_SAN_SYNTAX, "'%.20s...' is too long for a move", s);
		return false;
	}
	if (pos->halfmove == FEN_COUNTER_MAX || (pos->fullmove == FEN_COUNTER_MAX && pos->side == BLACK)) {
		set_error(c, t->start, TCHESS_ERR_RANGE, "%s %s: the move counters would pass %u", num, s,
			  FEN_COUNTER_MAX);
		return false;
	}
	/* Suffix annotations glued to the move become NAGs. */
	size_t k = n;
	while (k > 0 && (s[k - 1] == '!' || s[k - 1] == '?'))
		k--;
	if (k < n && k > 0) {
		suffix = pgn_text_nag(s + k);
		if (suffix < 0) {
			set_error(c, t->start, TCHESS_ERR_SAN_SYNTAX, "'%s': unknown annotation '%s'", s, s + k);
			return false;
		}
		s[k] = '\0';
		n = k;
	}
	if (!strcmp(s, "--") || !strcmp(s, "Z0")) {
		if (position_in_check(pos)) {
			set_error(c, t->start, TCHESS_ERR_ILLEGAL, "%s --: a null move is not allowed in check", num);
			return false;
		}
	} else if (!movegen_has_legal(pos)) {
		/* Said as what it is, not as the piece that cannot move. */
		set_error(c, t->start, TCHESS_ERR_ILLEGAL, "%s %s: a move after %s (no move is legal there)", num, s,
			  position_in_check(pos) ? "checkmate" : "stalemate");
		return false;
	} else if (looks_uci(s)) {
		set_error(c, t->start, TCHESS_ERR_SAN_SYNTAX,
			  "%s %s: UCI notation in movetext; PGN movetext must be SAN", num, s);
		return false;
	} else if (san_parse(pos, s, n, &m, &e) != TCHESS_OK) {
		set_error(c, t->start, e.code, "%s %s: %s", num, s, e.message);
		return false;
	}

	if (!flush_comment(c))
		return false;
	struct pgn_move *pm = pgn_moves_push(f->moves, f->n, f->cap);
	if (!pm) {
		set_error(c, t->start, TCHESS_ERR_NO_MEMORY, "out of memory");
		return false;
	}
	pm->m = m;
	f->before = *pos;
	if (m == MOVE_NONE) {
		strcpy(pm->san, "--");
		pgn_null_move(pos);
	} else {
		struct undo u;
		san_write(pos, m, pm->san);
		position_make(pos, m, &u);
	}
	if (suffix >= 0)
		add_nag(pm, suffix);
	return true;
}

/* Ends the game well: finishes the comment and sets the result. */
static enum pgn_status finish(struct ctx *c, const char *result)
{
	flush_comment(c);
	snprintf(c->g->result, sizeof c->g->result, "%s", result);
	c->r->games++;
	return PGN_OK;
}

static enum pgn_status fail(struct ctx *c, size_t resume, bool skip)
{
	if (skip) {
		resync(c, resume);
	} else {
		c->r->pos = resume;
		if (c->r->pos <= c->game_start)
			c->r->pos = c->game_start + 1;
	}
	c->r->games++;
	return PGN_ERROR;
}

/* Keeps the error just set as the game's warning (the first one), counts
 * it and clears the error. */
static void warn(struct ctx *c)
{
	if (c->g->n_warnings++ == 0) {
		const char *m = c->err->message;
		const char *comma = strchr(m, ',');
		/* "game 3, line 41, column 7: ..." without the game: the warning
		 * belongs to it. */
		if (!strncmp(m, "game ", 5) && comma)
			m = comma + 2;
		snprintf(c->g->warning, sizeof c->g->warning, "%.200s; the rest of that variation is skipped", m);
	}
	memset(c->err, 0, sizeof *c->err);
}

/* Opens a variation of the last move of the line read now (there is one):
 * its comment goes to that move, and the variation starts from the
 * position before it. False when memory runs out or the move has
 * UINT16_MAX variations. */
static bool open_variation(struct ctx *c)
{
	struct frame *f = top(c);
	struct pgn_move *pm = last_move(c);
	if (!flush_comment(c))
		return false;
	struct pgn_line *l = pgn_move_add_variation(pm);
	if (!l)
		return false;
	struct frame *v = &c->lines[++c->depth];
	v->moves = &l->moves;
	v->n = &l->n_moves;
	v->cap = &l->cap_moves;
	v->comment_start = &l->comment_start;
	v->pos = f->before;
	c->g->n_variations++;
	return true;
}

/* A result token inside a variation: the end of that line when the
 * variation closes right after it, "(1. d4 1-0)", which some files write
 * (and python-chess reads); otherwise the game ended with the variation
 * open. Returns false (error set) then. */
static bool variation_result(struct ctx *c, const struct pgn_token *t)
{
	struct pgn_token next;
	size_t pos = c->r->pos;
	pgn_lexer_next(&c->lx, &next);
	c->r->pos = pos;
	if (next.type == PGN_T_RPAREN)
		return true;
	set_error(c, t->start, TCHESS_ERR_PGN_SYNTAX, "game ends inside a variation");
	return false;
}

/* The number of a move number token ("12." gives 12; over 65535 gives
 * 65535; "." alone gives 0). */
static unsigned movenum_value(const struct pgn_reader *r, const struct pgn_token *t)
{
	unsigned long v = 0;
	for (size_t i = t->start; i < t->end && r->buf[i] >= '0' && r->buf[i] <= '9'; i++)
		if ((v = v * 10 + (unsigned long)(r->buf[i] - '0')) > 65535)
			return 65535;
	return (unsigned)v;
}

static enum pgn_status read_game(struct ctx *c)
{
	struct pgn_reader *r = c->r;
	struct pgn_game *g = c->g;
	struct pgn_token t;
	bool movetext = false;

	for (;;) {
		pgn_lexer_next(&c->lx, &t);
		if (!c->any) {
			if (t.type == PGN_T_EOF)
				return PGN_END;
			/* Comments alone at the end of the input are no game. */
			if (t.type != PGN_T_COMMENT) {
				c->any = true;
				c->game_start = t.start;
				g->offset = t.start;
				locate(r, t.start, &g->line, &g->col);
			}
		}
		if (t.type == PGN_T_LBRACKET) {
			if (movetext && t.line_start) {
				/* The termination marker is missing; this tag starts the next game. */
				if (c->depth > 0) {
					set_error(c, t.start, TCHESS_ERR_PGN_SYNTAX, "tag pair inside a variation");
					return fail(c, t.start, false);
				}
				r->pos = t.start;
				return finish(c, "");
			}
			if (movetext) {
				set_error(c, t.start, TCHESS_ERR_PGN_SYNTAX, "tag pair inside movetext");
				return fail(c, t.end, true);
			}
			struct pgn_token name, value, close;
			pgn_lexer_next(&c->lx, &name);
			if (name.type != PGN_T_SYMBOL) {
				set_error(c, name.start, TCHESS_ERR_PGN_SYNTAX, "missing tag name after '['");
				return fail(c, name.start, true);
			}
			char *tag_name = pgn_strdup(c->lx.text.p);
			pgn_lexer_next(&c->lx, &value);
			if (value.type != PGN_T_STRING || value.too_long) {
				free(tag_name);
				set_error(c, value.start, TCHESS_ERR_PGN_SYNTAX,
					  value.type == PGN_T_BAD_STRING ? "unterminated tag value"
					  : value.too_long	     ? "tag value too long"
								     : "missing tag value");
				return fail(c, value.type == PGN_T_BAD_STRING ? value.end : value.start, true);
			}
			char *tag_value = pgn_strdup(c->lx.text.p ? c->lx.text.p : "");
			pgn_lexer_next(&c->lx, &close);
			if (close.type != PGN_T_RBRACKET) {
				free(tag_name);
				free(tag_value);
				set_error(c, close.start, TCHESS_ERR_PGN_SYNTAX, "missing ']' after tag value");
				return fail(c, close.start, true);
			}
			if (g->n_tags >= PGN_TAGS_MAX) {
				free(tag_name);
				free(tag_value);
				set_error(c, t.start, TCHESS_ERR_RANGE, "more than %d tag pairs", PGN_TAGS_MAX);
				return fail(c, close.end, true);
			}
			if (tag_name && pgn_game_tag(g, tag_name) && t.line_start) {
				/* A repeated tag on a new line: a game of tags alone ended. */
				free(tag_name);
				free(tag_value);
				r->pos = t.start;
				if (!setup(c))
					return fail(c, t.start, false);
				return finish(c, "");
			}
			if (tag_name && !strcmp(tag_name, "FEN"))
				c->fen_off = value.start;
			if (tag_name && !strcmp(tag_name, "Variant"))
				c->variant_off = value.start;
			if (pgn_add_tag(g, tag_name, tag_value) != TCHESS_OK) {
				set_error(c, t.start, TCHESS_ERR_NO_MEMORY, "out of memory");
				return fail(c, close.end, true);
			}
			continue;
		}
		if (t.type == PGN_T_EOF) {
			if (c->depth > 0) {
				set_error(c, t.start, TCHESS_ERR_PGN_SYNTAX, "input ends inside a variation");
				return fail(c, t.start, false);
			}
			if (!c->setup_done && !setup(c))
				return fail(c, t.start, false);
			return finish(c, "");
		}

		/* The rest of a variation with a bad move is passed over up to
		 * its ')', nested variations and all. */
		if (c->skip > 0) {
			if (t.type == PGN_T_LPAREN)
				c->skip++;
			if (t.type == PGN_T_RPAREN && --c->skip == 0) {
				c->comment.len = 0;
				if (c->comment.p)
					c->comment.p[0] = '\0';
				c->depth--;
			}
			continue;
		}

		/* An empty line then a move number that goes back (most often
		 * "1.") ends a game that has no termination marker: the number
		 * starts the next game, as python-chess reads it. Annotated files
		 * put empty lines inside movetext too, but go on with the number
		 * they stopped at. */
		if (movetext && t.blank_before && t.type == PGN_T_MOVENUM && c->depth == 0 && g->n_moves > 0 &&
		    movenum_value(r, &t) < c->lines[0].pos.fullmove) {
			r->pos = t.start;
			return finish(c, "");
		}

		/* Everything else is movetext (a comment may sit among the tags). */
		if (t.type != PGN_T_COMMENT) {
			if (!c->setup_done && !setup(c))
				return fail(c, t.start, true);
			movetext = true;
		}

		switch (t.type) {
		case PGN_T_COMMENT:
			if (t.too_long) {
				set_error(c, t.start, TCHESS_ERR_RANGE, "comment longer than %u bytes", PGN_TOKEN_MAX);
				return fail(c, t.end, true);
			}
			if (c->lx.text.len && !add_comment(c, c->lx.text.p, c->lx.text.len)) {
				set_error(c, t.start, TCHESS_ERR_NO_MEMORY, "out of memory");
				return fail(c, t.end, true);
			}
			break;
		case PGN_T_BAD_COMMENT:
			set_error(c, t.start, TCHESS_ERR_PGN_SYNTAX, "unterminated comment");
			return fail(c, t.end, true);
		case PGN_T_MOVENUM:
			break;
		case PGN_T_NAG:
			if (t.nag < 0) {
				set_error(c, t.start, TCHESS_ERR_PGN_SYNTAX, "bad NAG (must be $0 to $255)");
				return fail(c, t.start, true);
			}
			if (last_move(c))
				add_nag(last_move(c), t.nag);
			break;
		case PGN_T_LPAREN:
			if (!last_move(c)) {
				set_error(c, t.start, TCHESS_ERR_PGN_SYNTAX, "variation before any move");
				return fail(c, t.start, true);
			}
			if (c->depth >= PGN_RAV_DEPTH_MAX) {
				set_error(c, t.start, TCHESS_ERR_RANGE, "variations nested deeper than %d",
					  PGN_RAV_DEPTH_MAX);
				return fail(c, t.start, true);
			}
			if (!open_variation(c)) {
				set_error(c, t.start, TCHESS_ERR_NO_MEMORY, "out of memory, or more than %u variations of one move",
					  UINT16_MAX);
				return fail(c, t.start, true);
			}
			break;
		case PGN_T_RPAREN:
			if (c->depth == 0) {
				set_error(c, t.start, TCHESS_ERR_PGN_SYNTAX, "')' without a variation to end");
				return fail(c, t.start, true);
			}
			if (!flush_comment(c)) {
				set_error(c, t.start, TCHESS_ERR_NO_MEMORY, "out of memory");
				return fail(c, t.end, true);
			}
			c->depth--;
			break;
		case PGN_T_STAR:
			if (c->depth > 0) {
				if (!variation_result(c, &t))
					return fail(c, t.start, true);
				break;
			}
			return finish(c, "*");
		case PGN_T_SYMBOL: {
			const char *s = c->lx.text.p;
			if (pgn_is_result(s)) {
				if (c->depth > 0) {
					if (!variation_result(c, &t))
						return fail(c, t.start, true);
					break;
				}
				char res[PGN_RESULT_MAX];
				snprintf(res, sizeof res, "%s", s);
				return finish(c, res);
			}
			int nag = pgn_text_nag(s);
			if (nag >= 0) {
				if (last_move(c))
					add_nag(last_move(c), nag);
				break;
			}
			if (!strcmp(s, "e.p.") || !strcmp(s, "ep"))
				break;
			if (!play_move(c, &t)) {
				/* A bad move in a variation costs the rest of that
				 * variation, not the game (real files carry engine
				 * lines computed for another position); the game
				 * says so. */
				if (c->depth == 0)
					return fail(c, t.start, true);
				warn(c);
				c->skip = 1;
			}
			break;
		}
		case PGN_T_RBRACKET:
		case PGN_T_STRING:
		case PGN_T_BAD_STRING:
		case PGN_T_BAD:
		default:
			set_error(c, t.start, TCHESS_ERR_PGN_SYNTAX, "unexpected character '%c'",
				  r->buf[t.start] >= ' ' && r->buf[t.start] < 0x7F ? r->buf[t.start] : '?');
			return fail(c, t.start == t.end ? t.start + 1 : t.start, true);
		}
	}
}

enum pgn_status pgn_read_game(struct pgn_reader *r, struct pgn_game *g, struct pgn_error *err)
{
	struct ctx c;
	memset(&c, 0, sizeof c);
	c.r = r;
	c.lx.r = r;
	c.lines[0].moves = &g->moves;
	c.lines[0].n = &g->n_moves;
	c.lines[0].cap = &g->cap_moves;
	c.lines[0].comment_start = &g->comment_start;
	c.g = g;
	struct pgn_error unused;
	c.err = err ? err : &unused;
	pgn_game_init(g);
	memset(c.err, 0, sizeof *c.err);
	enum pgn_status st = read_game(&c);
	pgn_sb_free(&c.lx.text);
	pgn_sb_free(&c.comment);
	return st;
}
