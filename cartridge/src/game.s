; The game's states, one frame of each at a time (main.s calls run_state right after the
; NMI), and the routines whose entry the event table names.
;
; A resolution, from a lock to the next column:
;   lock frame L      lock, match-check; with a match the step starts (counters, the cells
;                     go, clear timer 17); without one, row -2 is emptied, the combo drops
;                     by 2 and a jewel in row -1 ends the game.
;   every 5 frames    the clear timer steps and the cells blink; at 0 the score is added,
;                     the board collapses and match-check runs again (frame N). A new match
;                     starts its step on frame N+1.
;   frame L+1 / N+1   the combo rises if anything matched and a jewel in row -1 ends the
;                     game; a landed wild column raises the level request; 70 removed cells
;                     make the wild column (it spawns 16 frames later); otherwise the next
;                     column spawns and can be moved on that very frame.

.include "defs.inc"

.segment "CODE"

run_state:
    lda state
    asl a
    tax
    lda state_table + 1, x
    pha
    lda state_table, x
    pha
    rts                     ; "returns" into the state's routine

state_table:
    .word st_title - 1, st_setup - 1, st_fall - 1, st_clear - 1, st_chain - 1
    .word st_post - 1, st_wildgen - 1, st_fill - 1, st_wait - 1, st_continue - 1

; ---- title: the logo's colour steps every 29 frames; after its last glyph the game starts
; by itself. Start starts it at once.
st_title:
    ldx #0
    lda title_active
    bne :+
    ldx #SETUP_LATE         ; the title's first frame
    lda #1
    sta title_active
:   stx setup_flags
    lda pressed
    and #BTN_START
    beq @timer
    jmp game_setup
@timer:
    lda frames
    cmp #TITLE_STEP
    bcc @done
    inc anim
    lda anim
    cmp #7
    bcc @recolour
    inc glyph
    lda glyph
    cmp #GLYPHS
    bcc :+
    lda #0                  ; the automatic start, with the colour at 7
    sta setup_flags
    jmp game_setup
:   lda #1
    sta anim
@recolour:
    lda #0
    sta frames
    jmp draw_glyph
@done:
    rts

; ---- game setup: the board empties at once; the screen is redrawn with rendering off
; while the NMI only counts frames; the first column comes 6 frames later.
game_setup:
    lda #0
    sta title_active
    sta nmi_active
    jsr clear_playfield
    lda setup_flags
    and #SETUP_LATE
    bne :+
    lda #0
    sta on_title
    sta paused
:   ; A new game (after a reset all of this is zero already).
    lda #0
    ldx #level + DIGITS - score - 1
@zero:
    sta score, x
    dex
    bpl @zero
    sta level_index
    sta removed_all
    sta combo
    lda nmi_count
    sta setup_base
    lda #ST_SETUP
    sta state
    lda #TXT_NONE
    sta text_shown
    rts

st_setup:
    lda nmi_count
    sec
    sbc setup_base
    cmp #1
    bne @later
    lda setup_flags
    and #SETUP_LATE
    beq :+
    lda #0
    sta on_title
    sta paused
:   lda #0
    sta render_on
    sta PPUMASK
    jmp draw_game_screen
@later:
    cmp #SETUP_FRAMES
    bcc @wait
    ldx level_index
    jsr speed_of
    sta fall_speed
    jsr first_columns
    jsr spawn
    lda #0
    sta setup_flags
    lda #ST_FALL
    sta state
    lda #1
    sta nmi_active
    sta render_on
    sta hud_dirty
@wait:
    rts

; ---- a new column at x = 3, its bottom jewel in row 0, over whatever is there.
spawn:
    lda #SPAWN_X
    sta col_x
    lda #0
    sta col_y
    sta landed
    sta fall_timer
    sta soft_armed
    sta rpt_left
    sta rpt_right
    lda fall_speed
    sta fall_period
    lda spawn_tick          ; a test's race_spawn 3: the timer is a tick on already
    beq :+
    lda #0
    sta spawn_tick
    inc fall_timer
:   lda spawn_late          ; a test's race_spawn 4-6: only the top jewels drawn now
    bne draw_column_top
    jmp draw_column

; The top spawn_late - 1 jewels of the new column (none, one or two); the column is drawn
; whole on the next frame, when its falling frames begin.
draw_column_top:
    jsr column_index
    lda spawn_late
    cmp #2
    bcc @done
    lda cur_col
    sta playfield - 2 * ROW_BYTES, y
    lda spawn_late
    cmp #3
    bcc @done
    lda cur_col + 1
    sta playfield - ROW_BYTES, y
@done:
    rts

; ---- the falling column. One new press counts: rotate, then Right, then Left, each
; discarding the others; Down arms the soft drop. Held Left/Right repeat when their
; counter (run by the NMI) reaches 8.
st_fall:
    lda spawn_late          ; a column the lock's frame did not finish drawing: drawn now
    beq :+
    lda #0
    sta spawn_late
    jsr draw_column
:   lda paused
    beq @running
    lda #TXT_PAUSE
    jmp show_text
@running:
    lda text_shown
    cmp #TXT_PAUSE
    bne :+
    lda #TXT_NONE
    jsr show_text
:   lda pressed
    and #BTN_A | BTN_B
    beq @right
    lda #0
    sta pressed
    jsr rotate
@right:
    lda pressed
    and #BTN_RIGHT
    beq :+
    lda #0
    sta pressed
    jsr move_right
    jmp @left
:   lda held_right
    beq @left
    lda rpt_right
    cmp #REPEAT_AT
    bcc @left
    lda #0
    sta rpt_right
    jsr move_right
@left:
    lda pressed
    and #BTN_LEFT
    beq :+
    lda #0
    sta pressed
    jsr move_left
    jmp @down
:   lda held_left
    beq @down
    lda rpt_left
    cmp #REPEAT_AT
    bcc @down
    lda #0
    sta rpt_left
    jsr move_left
@down:
    lda pressed
    and #BTN_DOWN
    beq :+
    lda #BTN_DOWN
    sta soft_armed
:   ldx fall_period         ; the period in force before this frame
    lda fall_speed
    ldy held_down
    beq :+
    ldy soft_armed
    beq :+
    lda #SOFT_PERIOD
:   sta fall_period
    ; The Down-release race (docs/magic-jewelry.md, "Controls"): the real game's check can
    ; still see the period in force before the frame; which side it takes depends on its
    ; CPU timing, which no state of the game tells. This cartridge takes the usual side; a
    ; test that replays a recording gives it the real game's other side by writing
    ; race_fall before the frame.
    ldy race_fall
    beq @check
    ldy #0
    sty race_fall
    sta race_period         ; in force once the column has dropped; a lock keeps the old
    stx fall_period
@check:
    lda fall_timer
    cmp fall_period
    bcc @rest
    lda #0
    sta fall_timer
    jsr can_fall
    bcc @lock
    jsr erase_column
    inc col_y
    jsr draw_column
@rest:
    lda race_period
    beq :+
    sta fall_period
    lda #0
    sta race_period
:   jsr can_fall
    bcs @flash
    jsr column_index
    tya
    sec
    sbc #FIRST_VISIBLE      ; 8 * y + x + 1
    sta landed
@flash:
    ; The wild column flashes: drawn while bit 3 of the frame counter is clear, erased
    ; while it is set, changing every 8 frames (a move draws it at once).
    lda cur_col
    cmp #WILD
    bne @done
    lda frames
    and #7
    bne @done
    lda frames
    and #8
    beq :+
    jmp erase_column
:   jmp draw_column
@done:
    rts
@lock:
    lda #0
    sta race_period
    jmp lock

; A or B: [top, middle, bottom] becomes [bottom, top, middle]; with Select held, top and
; bottom swap.
rotate:
    lda held_select
    beq @turn
    lda cur_col
    ldx cur_col + 2
    sta cur_col + 2
    stx cur_col
    jmp @drawn
@turn:
    lda cur_col + 2
    pha
    lda cur_col + 1
    sta cur_col + 2
    lda cur_col
    sta cur_col + 1
    pla
    sta cur_col
@drawn:
    lda #SFX_ROTATE
    jsr sfx_play
    jmp draw_column

move_left:
    lda col_x
    beq no_move
    jsr column_index
    dey
    jsr cells_free
    bne no_move
    jsr erase_column
    dec col_x
    jmp moved

move_right:
    lda col_x
    cmp #5
    beq no_move
    jsr column_index
    iny
    jsr cells_free
    bne no_move
    jsr erase_column
    inc col_x
moved:
    lda #SFX_MOVE
    jsr sfx_play
    jmp draw_column
no_move:
    rts

; Z set when the three cells ending at playfield index Y (bottom) are empty.
cells_free:
    lda playfield, y
    ora playfield - ROW_BYTES, y
    ora playfield - 2 * ROW_BYTES, y
    rts

; ---- the column stays where it is.
lock:
    lda #SFX_LOCK
    jsr sfx_play
    lda cur_col
    cmp #WILD
    bne :+
    jsr draw_column         ; a wild column locks drawn, even in its erased phase
    lda #8
    sta cur_col
    lda #1
    sta wild_mark
:   jsr match_check
    lda removed
    beq @none
    lda #1
    sta step
    sta post_pending
    ; A test's race_late: the real game's first step starts a frame later this time.
    lda race_late
    beq :+
    lda #0
    sta race_late
    lda #ST_CHAIN           ; the step starts on the next frame
    sta state
    rts
:   jmp start_clear
@none:
    lda #0
    sta post_pending
    jsr erase_row_m2
    lda combo
    sec
    sbc #2
    bcs :+
    lda #0
:   sta combo
    jsr row_m1_taken
    beq :+
    jmp game_over
:   lda #ST_POST
    sta state
    ; A test's race_spawn: the real game's next column came on the lock frame (1) or the next
    ; (2), or the next with its fall timer already a tick on (3), or on the lock frame with its
    ; drawing left for the next frame but for 0-2 jewels (4-6), this time.
    lda race_spawn
    beq @rule
    ldx #0
    stx race_spawn
    cmp #1
    bne :+
    jmp st_post
:   cmp #4
    bcc :+
    sec
    sbc #3
    sta spawn_late
    jmp st_post
:   cmp #3
    bne :+
    lda #1
    sta spawn_tick
:   rts
@rule:
    ; The next column comes on the next frame, or at once where the real game's lock frame
    ; has room for it (docs/magic-jewelry.md, "Races"): when the board holds
    ; SAME_FRAME_JEWELS jewels or more, or at the first level's speed when the spawn column
    ; stands 7 high (a jewel in row 6).
    ldx #ROW_M1             ; rows -1..12 (row -2 has just been emptied)
    ldy #0
@count:
    lda playfield, x
    beq @empty
    iny
@empty:
    inx
    cpx #ROW_BYTES * 15
    bne @count
    cpy #SAME_FRAME_JEWELS
    bcc @first_speed
    jmp st_post
@first_speed:
    lda fall_period
    cmp #FIRST_SPEED
    bne @next
    lda playfield + ROW_BYTES * (6 + 2) + SPAWN_X + 1
    beq @next
    jmp st_post
@next:
    rts

; A match step begins: the jewel counter and $6E count its cells, which leave the board,
; and the clear timer starts at 17.
start_clear:
    jsr add_jewels
    jsr erase_marked
    lda #CLEAR_START
    sta anim
    lda #CLEAR_STEP
    sta clear_sub
    lda #ST_CLEAR
    sta state
    lda #SFX_CLEAR
    jmp sfx_play

st_clear:
    dec clear_sub
    bne @done
    lda #CLEAR_STEP
    sta clear_sub
    dec anim
    beq @collapse
    jmp blink_marks
@collapse:
    jsr add_score
    jsr collapse
    jsr match_check
    lda removed
    beq :+
    inc step
    lda #ST_CHAIN
    sta state
    rts
:   lda #ST_POST
    sta state
@done:
    rts

; The next step of a chain starts on the frame after the collapse that found it.
st_chain:
    jmp start_clear

; ---- the end of a resolution and the next column.
st_post:
    lda post_pending
    beq @next
    lda #0
    sta post_pending
    lda combo
    cmp #9
    bcs :+
    inc combo
:   jsr erase_row_m2
    jsr row_m1_taken
    beq @next
    jmp game_over
@next:
    lda cur_col
    cmp #8
    bne :+
    jsr wild_landed
:   lda removed_all
    cmp #WILD_AT
    bcc :+
    jmp wild_generated
:   jsr promote
    jsr new_next
    jsr spawn
    lda #ST_FALL
    sta state
    lda spawn_late          ; its drawing left for the next frame: so is its first frame
    beq :+
    rts
:   jmp st_fall

; A wild column's landing has been resolved: the next NMI raises the internal level.
wild_landed:
    lda #1
    sta level_req
    rts

; 70 removed cells: the displayed level goes up and the current column becomes three X's
; (the next column stays). It comes in 16 frames later.
wild_generated:
    lda removed_all
    sec
    sbc #WILD_AT
    sta removed_all
    jsr add_level
    lda #WILD
    sta cur_col
    sta cur_col + 1
    sta cur_col + 2
    lda #WILD_FRAMES
    sta state_timer
    lda #ST_WILDGEN
    sta state
    rts

st_wildgen:
    dec state_timer
    bne :+
    jsr spawn
    lda #ST_FALL
    sta state
    jmp st_fall
:   rts

; ---- game over: the playfield fills with X's from the bottom right, a cell every 2
; frames (rows 0-12, left border bytes included), then the game waits for Start held.
game_over:
    jsr update_high
    jsr write_top
    ldx #FILL_FIRST
    stx fill_index
    lda #WILD
    sta playfield, x
    lda #2
    sta state_timer
    lda #ST_FILL
    sta state
    lda #TXT_OVER
    jsr show_text
    lda #SFX_GAMEOVER
    jmp sfx_play

st_fill:
    dec state_timer
    bne @done
    lda #2
    sta state_timer
    ldx fill_index
    dex
    txa
    and #7
    cmp #7
    bne :+
    dex                     ; right border bytes stay
:   cpx #FILL_LAST
    bcc @filled
    stx fill_index
    lda #WILD
    sta playfield, x
@done:
    rts
@filled:
    lda #ST_WAIT
    sta state
    ; fall through

; The first frame Start is held decides: exactly Select, Start and Right (nothing else held)
; continue the game, anything else with Start resets. The continue empties the board at once
; and shows the logo on a black screen ($46 = 1, $3F = 0); the game then waits for a new Start
; press, with no time limit.
st_wait:
    lda held_start
    beq @done
    lda pad
    cmp #BTN_SELECT | BTN_START | BTN_RIGHT
    bne @reset
    jsr clear_playfield
    lda #1
    sta on_title
    lda #0
    sta paused
    lda #ST_CONTINUE
    sta state
    lda #0                  ; rendering off until the next NMI, while the logo is drawn
    sta PPUMASK
    jmp draw_continue_screen
@reset:
    jmp reset
@done:
    rts

; The logo after a continue. A new Start press (the NMI has just toggled the pause with it)
; spawns the column shown next at the game over on the empty board, in that frame, with the
; score, jewels, levels, speed, cells removed and generator as they were; the game screen is
; drawn again around it.
st_continue:
    lda pressed
    and #BTN_START
    beq @done
    lda #0
    sta on_title
    sta paused
    jsr promote
    jsr new_next
    jsr spawn
    lda #0                  ; rendering off until the next NMI, while the screen is drawn
    sta PPUMASK
    jsr draw_game_screen
    lda #TXT_NONE
    sta text_shown
    lda #1
    sta hud_dirty
    lda #ST_FALL
    sta state
@done:
    rts

; The high score takes the score when it is higher.
update_high:
    ldx #DIGITS - 1
:   lda score, x
    cmp high_score, x
    bcc @keep
    bne @take
    dex
    bpl :-
@keep:
    rts
@take:
    ldx #DIGITS - 1
:   lda score, x
    sta high_score, x
    dex
    bpl :-
    rts
