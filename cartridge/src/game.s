; The game's states and the falling column's controls and timing.
;
; Timing follows what was measured on Magic Jewelry: Left/Right move on the press frame and
; repeat after 6 then every 8 frames; Down drops a row every 2 frames and locks as soon as
; the column lands; gravity drops a row when the fall timer reaches the fall speed, and a
; column that cannot fall locks at the next drop, so it can slide for one fall period.

.include "defs.inc"

.segment "CODE"

; Runs the current state's frame, then the playfield renderer during a game.
run_state:
    lda game_state
    asl a
    tax
    lda state_table + 1, x
    pha
    lda state_table, x
    pha
    rts                     ; "returns" into the state's routine

state_table:
    .word st_title - 1, st_fall - 1, st_clear - 1, st_spawn - 1
    .word st_gameover - 1, st_pause - 1

; ---- title
st_title:
    inc blink
    lda blink
    and #$1F
    bne @input
    lda #<text_push_start
    sta ptr
    lda #>text_push_start
    sta ptr + 1
    lda blink
    and #$20
    beq :+
    lda #<text_blank10
    sta ptr
    lda #>text_blank10
    sta ptr + 1
:   jsr write_text_entry
@input:
    lda pad_new
    and #BTN_START
    beq :+
    jmp start_game
:   rts

; ---- a new game
start_game:
    jsr ppu_off
    ; No game while the screen is redrawn (that takes several frames): fall speed 0 tells
    ; RAM readers so until the new game is whole.
    lda #0
    sta fall_speed
    lda seed
    ora seed + 1
    bne :+
    lda #<DEFAULT_SEED
    sta seed
    lda #>DEFAULT_SEED
    sta seed + 1
:   lda #0
    ldx #PF_END + 7         ; the playfield and the zero row after it
:   sta playfield, x
    sta marks, x
    sta shown, x
    dex
    bpl :-
    jsr draw_game_screen
    lda #0
    ldx #level + LEVEL_DIGITS - score - 1
:   sta score, x
    dex
    bpl :-
    sta clear_timer
    sta level_index
    sta since_wild
    sta fall_timer
    sta col_x
    sta col_y
    sta wild_colour
    lda #$FF
    sta shown_next
    sta shown_next + 1
    sta shown_next + 2
    lda #1
    sta soft_timer
    sta hud_dirty
    lda #DAS_FIRST
    sta das_timer
    jsr new_next
    jsr spawn
    lda speed_table
    sta fall_speed          ; non-zero from now on: a game is running
    jmp ppu_on

; The next column: wild once enough jewels were removed, otherwise three random colours.
new_next:
    lda since_wild
    cmp #WILD_EVERY
    bcc @random
    sbc #WILD_EVERY
    sta since_wild
    lda #WILD
    sta next_col
    sta next_col + 1
    sta next_col + 2
    rts
@random:
    jsr rand_colour
    sta next_col
    jsr rand_colour
    sta next_col + 1
    jsr rand_colour
    sta next_col + 2
    rts

; The next column becomes the current one.
advance_queue:
    lda next_col
    sta cur_col
    lda next_col + 1
    sta cur_col + 1
    lda next_col + 2
    sta cur_col + 2
    jmp new_next

; Brings the next column in at x=3 with its bottom jewel in row 0; game over when its cells
; are taken.
spawn:
    jsr advance_queue
    lda playfield + SPAWN_TOP
    ora playfield + SPAWN_MIDDLE
    ora playfield + SPAWN_BOTTOM
    bne @blocked
    lda #3
    sta col_x
    lda #0
    sta col_y
    sta fall_timer
    jsr draw_column
    lda #ST_FALL
    sta game_state
    rts
@blocked:
    ; What fits of the column shows in the hidden rows above the stack.
    lda playfield + SPAWN_TOP
    bne :+
    lda cur_col
    sta playfield + SPAWN_TOP
:   lda playfield + SPAWN_MIDDLE
    bne :+
    lda cur_col + 1
    sta playfield + SPAWN_MIDDLE
:   jmp game_over

st_spawn:
    jsr spawn
    jmp render_play

; ---- the falling column
st_fall:
    lda pad_new
    and #BTN_START
    beq :+
    jmp pause
:   lda pad_new
    and #BTN_A | BTN_B
    beq @sideways
    jsr rotate
@sideways:
    lda pad_new
    and #BTN_LEFT
    beq :+
    lda #DAS_FIRST
    sta das_timer
    jsr move_left
    jmp @down
:   lda pad_new
    and #BTN_RIGHT
    beq :+
    lda #DAS_FIRST
    sta das_timer
    jsr move_right
    jmp @down
:   lda pad
    and #BTN_LEFT | BTN_RIGHT
    beq @down
    dec das_timer
    bne @down
    lda #DAS_REPEAT
    sta das_timer
    lda pad
    and #BTN_LEFT
    beq :+
    jsr move_left
    jmp @down
:   jsr move_right
@down:
    lda pad
    and #BTN_DOWN
    beq @gravity
    lda #0
    sta fall_timer
    inc soft_timer
    lda soft_timer
    cmp #2
    bcc @done
    lda #0
    sta soft_timer
    jsr can_fall
    bcc @lock
    jsr move_down
    jsr can_fall            ; landed with Down held: lock at once
    bcc @lock
    bcs @done
@gravity:
    lda #1                  ; the first frame of Down drops a row
    sta soft_timer
    inc fall_timer
    lda fall_timer
    cmp fall_speed
    bcc @done
    lda #0
    sta fall_timer
    jsr can_fall
    bcc @lock
    jsr move_down
@done:
    jmp render_play
@lock:
    jsr lock
    jmp render_play

; [top, middle, bottom] becomes [bottom, top, middle].
rotate:
    lda cur_col + 2
    pha
    lda cur_col + 1
    sta cur_col + 2
    lda cur_col
    sta cur_col + 1
    pla
    sta cur_col
    lda #1
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
    lda #0
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

move_down:
    jsr erase_column
    inc col_y
    jmp draw_column

; The column stays where it is. A wild column does its work; otherwise a jewel left in a
; hidden row ends the game, and matches start the clear animation.
lock:
    lda #2
    jsr sfx_play
    lda cur_col + 2
    cmp #WILD
    bne :+
    jmp wild_lands
:   lda col_y
    cmp #2
    bcs :+
    jsr advance_queue       ; the column that can no longer come in
    jmp game_over
:   lda #1
    sta chain
    jsr find_matches
    beq :+
    jmp start_clear
:   lda #ST_SPAWN
    sta game_state
    rts

; Removes the X's, and every jewel of the colour they landed on; the level goes up.
wild_lands:
    lda #0
    sta wild_colour
    jsr column_index
    lda col_y
    cmp #12
    beq :+
    lda playfield + ROW_BYTES, y
    sta wild_colour
:   lda #0
    ldx #PF_END - 1
:   sta marks, x
    dex
    bpl :-
    lda #1
    sta marks, y
    sta marks - ROW_BYTES, y
    sta marks - 2 * ROW_BYTES, y
    lda #0
    sta removed
    lda wild_colour
    beq @counted
    ldy #FIRST_VISIBLE
@find:
    lda playfield, y
    cmp wild_colour
    bne :+
    lda #1
    sta marks, y
    inc removed
:   iny
    cpy #PF_END
    bne @find
@counted:
    lda #1
    sta chain
    jsr start_clear
    jmp level_up

; Jewels matched: counters now, the animation for the next 85 frames.
start_clear:
    jsr add_points
    lda #CLEAR_START
    sta clear_timer
    lda #CLEAR_STEP
    sta clear_sub
    lda #ST_CLEAR
    sta game_state
    lda #3
    jmp sfx_play

; ---- clear animation, collapse and chains
st_clear:
    dec clear_sub
    bne @done
    lda #CLEAR_STEP
    sta clear_sub
    dec clear_timer
    bne @done
    jsr collapse
    lda chain
    cmp #15
    bcs :+
    inc chain
:   jsr find_matches
    beq :+
    jsr start_clear
    jmp @done
:   lda #ST_SPAWN
    sta game_state
@done:
    jmp render_play

; ---- pause
pause:
    lda #ST_PAUSE
    sta game_state
    lda #<text_pause
    sta ptr
    lda #>text_pause
    sta ptr + 1
    jsr write_text_entry
    jmp render_play

st_pause:
    lda pad_new
    and #BTN_START
    beq :+
    lda #ST_FALL
    sta game_state
    lda #<text_unpause
    sta ptr
    lda #>text_unpause
    sta ptr + 1
    jsr write_text_entry
:   jmp render_play

; ---- game over
game_over:
    lda #ST_GAMEOVER
    sta game_state
    lda #0
    sta state_timer
    lda #4
    jmp sfx_play

; The board stays; after half a second a box says so, and Start begins a new game.
GAME_OVER_BOX_FRAME = 30
st_gameover:
    lda state_timer
    cmp #GAME_OVER_BOX_FRAME
    beq @box
    bcs @input
    inc state_timer
    jmp render_play
@box:
    inc state_timer
    lda #<text_game_over
    sta ptr
    lda #>text_game_over
    sta ptr + 1
    ldx #5                  ; five lines
:   txa
    pha
    jsr write_text_entry
    lda ptr
    clc
    adc tmp1                ; entry length
    sta ptr
    bcc :+
    inc ptr + 1
:   pla
    tax
    dex
    bne :--
    rts
@input:
    lda pad_new
    and #BTN_START
    beq :+
    jmp start_game
:   rts

.segment "RODATA"

; Frames per row at each level index: 63 at the first level, as on Magic Jewelry.
speed_table:
    .byte 63, 56, 50, 44, 39, 34, 30, 26, 23, 20
    .byte 17, 15, 13, 11,  9,  7,  6,  5,  4,  3

text_pause:
    TEXT 24, 16, "PAUSE"
text_unpause:
    TEXT 24, 16, "     "
text_game_over:
    TEXT 10, 12, "            "
    TEXT 10, 13, " GAME  OVER "
    TEXT 10, 14, "            "
    TEXT 10, 15, " PUSH START "
    TEXT 10, 16, "            "
