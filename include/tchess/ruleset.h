/*
 * Rulesets: the policies on which the online rule documents disagree, as
 * orthogonal options, with one named preset per document.
 *
 *   fide        the Polychess document: threefold and fifty-move by claim
 *               (fivefold and 75-move always automatic), disconnect grace 15 s
 *               then technical failure, no tablebase claims.
 *   yourpot     the Yourpot document: threefold and fifty-move automatic, draw
 *               offers only on one's own move and valid until withdrawn, abort
 *               alone before 2 plies and by consent after, disconnect adjourns
 *               (resume by consent; a discard is the partner's refusal, a
 *               decline, 60 s without an answer while online or a day
 *               gone with the request standing; one discard
 *               claim a UTC day, three discards lose), tablebase claims up
 *               to 6 pieces judged as Nalimov's tables do (no fifty-move
 *               rule in the verdict) with a time penalty by speed class, the relaxed
 *               premove rules, and a premove played without changing the
 *               player's timing (no Fischer increment for it).
 *   chessgamble the chessgamble document: threefold and fifty-move automatic,
 *               draw offers on one's own move, valid until that turn ends,
 *               offers rate-limited (article 12, harassment), no abort
 *               (Article 5 ends games by the rules alone; 6.4 a tournament
 *               ends when all its games are finished), and only Article
 *               7's time controls: corr:Xd/10 for X = 10, 20, 30, and X
 *               minutes for X = 5, 10, 20, 30 with or without a Fischer
 *               increment; the win claim against a player gone (11.2)
 *               only when no game of theirs hears from them.
 *
 * A ruleset is plain data; the game, clock and premove code read it.
 */
#ifndef TCHESS_RULESET_H
#define TCHESS_RULESET_H

#include <stdbool.h>
#include <stdint.h>

/* Speed classes by Yourpot's definitions, from the time for 40 moves. */
enum speed_class {
	SPEED_BULLET = 0,     /* up to 90 s */
	SPEED_FAST_BLITZ,     /* up to 210 s */
	SPEED_BLITZ,          /* up to 5 min */
	SPEED_STANDARD,       /* over 5 min */
	SPEED_CORRESPONDENCE, /* days per move block */
	SPEED_CLASS_NB
};

enum draw_rule_mode {
	DRAW_BY_CLAIM = 0, /* the player to move may claim */
	DRAW_AUTOMATIC     /* the game ends by itself */
};

enum offer_lifetime {
	OFFER_UNTIL_WITHDRAWN = 0,     /* stands until accepted, declined or withdrawn */
	OFFER_UNTIL_TURN_ENDS,         /* lapses when the offerer's turn ends */
	OFFER_UNTIL_OPPONENT_MOVES     /* lapses when the opponent moves instead of accepting */
};

enum disconnect_policy {
	DISCONNECT_ADJOURN = 0,        /* clocks stop; resume by consent */
	DISCONNECT_TECHNICAL_FAILURE,  /* the game ends unscored */
	DISCONNECT_CLAIM_WIN           /* the present player may claim the win */
};

/* Premove relaxations of the Yourpot document, as bits. */
enum premove_relax {
	PREMOVE_RELAX_OWN_CAPTURE = 1u << 0,        /* capturing one's own piece */
	PREMOVE_RELAX_JUMP = 1u << 1,               /* jumping over pieces */
	PREMOVE_RELAX_CASTLE_ATTACKED = 1u << 2,    /* castling through or into attacked squares */
	PREMOVE_RELAX_LEAVE_IN_CHECK = 1u << 3,     /* moves leaving the king in check */
	PREMOVE_RELAX_CASTLE_PAST_MINOR = 1u << 4,  /* castling past one enemy knight or bishop */
	PREMOVE_RELAX_PAWN_PUSH_OCCUPIED = 1u << 5, /* pawn push onto an occupied square */
	PREMOVE_RELAX_PAWN_CAPTURE_EMPTY = 1u << 6, /* pawn capture onto an empty square */
	PREMOVE_RELAX_ALL = (1u << 7) - 1
};

/* A time control a ruleset allows (chessgamble Article 7), as plain data:
 * clock.h's time_control_allowed judges a control against the list. */
enum ruleset_tc_family {
	RULESET_TC_CORRESPONDENCE = 0, /* base_ms for every block of moves moves */
	RULESET_TC_QUICK               /* base_ms for the game, Fischer increment or none */
};

struct ruleset_tc {
	enum ruleset_tc_family family;
	int64_t base_ms;
	int moves; /* correspondence: moves per block */
};

#define RULESET_TCS_MAX 8
#define RULESET_NAME_MAX 24
#define PREMOVE_DEPTH_MAX 8

struct ruleset {
	char name[RULESET_NAME_MAX];
	enum draw_rule_mode threefold;
	enum draw_rule_mode fifty_moves;
	enum offer_lifetime offer_lifetime;
	bool offer_own_move_only;       /* offers only while it is one's own move */
	int offer_min_interval_plies;   /* anti-harassment: plies between two offers by one player */
	int abort_alone_max_plies;      /* abort without consent while fewer plies than this were played */
	bool abort_by_consent;          /* later aborts need the opponent's consent */
	enum disconnect_policy disconnect;
	int64_t disconnect_grace_ms;
	/* Whether a player gone from one game is gone only when no game of
	 * theirs hears from them (the win claim of DISCONNECT_CLAIM_WIN):
	 * chessgamble 11.2, "a player is not active on the website anymore".
	 * fide and yourpot judge each game's connection on its own. */
	bool activity_per_player;
	int discard_claims_per_day;     /* adjourned games: claims that the partner discards resuming */
	int discards_to_lose;
	/* A discard is the partner's refusal: a decline of the resume request,
	 * or this long without an answer while the partner is online. */
	int64_t resume_answer_ms;
	/* ... or this long gone with the request standing: a partner who
	 * never returns refuses by staying away (else the game would wait
	 * for ever). */
	int64_t resume_absent_ms;
	int tablebase_max_pieces;       /* 0: no tablebase claims */
	/* Whether a tablebase claim's verdict counts the fifty-move rule (a
	 * win it stops is a draw) or is the tables' own (Yourpot: "a draw
	 * according to the ending tables of Nalimov", DTM tables that know
	 * no fifty-move rule: a cursed win is a win). Either table set gives
	 * the same verdict (tchess/tablebase.h, tablebase_judge_claim). */
	bool tablebase_fifty_moves;
	int64_t tablebase_penalty_ms[SPEED_CLASS_NB];
	unsigned premove_relax;         /* enum premove_relax bits */
	/* Whether a premove the server plays earns the Fischer increment.
	 * Yourpot: no, a premove "is performed without changing the overall
	 * timing of the player"; fide (Polychess: "plus ten seconds after
	 * each move") and chessgamble (Article 7's credit for "each move"):
	 * yes, it is a move like any other. */
	bool premove_increment;
	int premove_depth;              /* premoves that may be queued, 1..PREMOVE_DEPTH_MAX */
	int invalid_command_limit;      /* consecutive invalid commands before a technical forfeit */
	int64_t first_move_timeout_ms;  /* game aborted when a side's first move takes longer */
	/* The time controls allowed (n_time_controls 0: any). chessgamble:
	 * "correspondence chess: X days for 10 moves (where X = 10, 20 or
	 * 30)" and "chess X minutes (where X = 5, 10, 20 or 30) with or
	 * without time credit". */
	int n_time_controls;
	struct ruleset_tc time_controls[RULESET_TCS_MAX];
};

/* Fills r with the named preset; returns false (r untouched) if unknown. */
bool ruleset_preset(struct ruleset *r, const char *name);

/* The names of the presets, NULL-terminated. */
extern const char *const ruleset_preset_names[];

/* Checks r's values; on a bad one returns false and, if why is not NULL,
 * points it at a static sentence naming the option. */
bool ruleset_validate(const struct ruleset *r, const char **why);

#endif
