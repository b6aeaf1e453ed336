; The title screen and the game screen, drawn whole with rendering off.

.include "defs.inc"


TITLE_TX = 8
TITLE_TY = 6

.segment "CODE"

; The title: big name, a row of jewels, "PUSH START". Fall speed 0 says "no game".
draw_title:
    lda #ST_TITLE
    sta game_state
    lda #0
    sta fall_speed
    jsr clear_screen
    lda #<title_list
    sta ptr
    lda #>title_list
    sta ptr + 1
    jsr flush_list
    ; JEWELBOT in 16x16 letters on palette 1.
    ldx #0
@letter:
    txa
    pha
    asl a
    clc
    adc #TITLE_TX
    sta cell_tx
    lda #TITLE_TY
    sta cell_ty
    lda title_letters, x
    sta cell_tile
    lda #1
    sta cell_pal
    jsr draw_cell
    jsr flush_now
    pla
    tax
    inx
    cpx #8
    bne @letter
    ; One jewel of each colour.
    ldx #1
@jewel:
    txa
    pha
    asl a
    clc
    adc #8
    sta cell_tx
    lda #12
    sta cell_ty
    txa
    jsr draw_value
    jsr flush_now
    pla
    tax
    inx
    cpx #7
    bne @jewel
    jmp ppu_on

; The game screen: frames, labels and an empty playfield (every cell drawn, shown = 0).
draw_game_screen:
    jsr clear_screen
    lda #<game_list
    sta ptr
    lda #>game_list
    sta ptr + 1
    jsr flush_list
    ldy #FIRST_VISIBLE
@cell:
    tya
    and #7
    beq @next
    cmp #7
    beq @next
    sty save_y
    asl a
    clc
    adc #PF_TX - 2
    sta cell_tx
    tya
    lsr a
    lsr a
    and #%11111110
    clc
    adc #(PF_TY - 4) & $FF
    sta cell_ty
    lda #0
    jsr draw_value
    jsr flush_now
    ldy save_y
@next:
    iny
    cpy #PF_END
    bne @cell
    rts

.segment "RODATA"

; Tile of each big letter of JEWELBOT (generated in the order B E J L O T W).
title_letters:
    .byte BIG_TILES + 8, BIG_TILES + 4, BIG_TILES + 24, BIG_TILES + 4
    .byte BIG_TILES + 12, BIG_TILES + 0, BIG_TILES + 16, BIG_TILES + 20

text_push_start:
    TEXT 11, 17, "PUSH START"
text_blank10:
    TEXT 11, 17, "          "

title_list:
    TEXT 9, 9, "OPEN CARTRIDGE"
    TEXT 11, 17, "PUSH START"
    TEXT 4, 21, "MATCH 3 JEWELS IN A LINE"
    TEXT 5, 23, "LEFT RIGHT DOWN: MOVE"
    TEXT 9, 25, "A OR B: ROTATE"
    .byte 0

game_list:
    ; Playfield frame.
    RUN  9,  1,  1, T_TL, 0
    RUN 10,  1, 12, T_TOP, 0
    RUN 22,  1,  1, T_TR, 0
    RUN  9,  2, 26, T_LEFT, $80
    RUN 22,  2, 26, T_RIGHT, $80
    RUN  9, 28,  1, T_BL, 0
    RUN 10, 28, 12, T_BOTTOM, 0
    RUN 22, 28,  1, T_BR, 0
    ; Next box.
    RUN 25,  5,  1, T_TL, 0
    RUN 26,  5,  2, T_TOP, 0
    RUN 28,  5,  1, T_TR, 0
    RUN 25,  6,  6, T_LEFT, $80
    RUN 28,  6,  6, T_RIGHT, $80
    RUN 25, 12,  1, T_BL, 0
    RUN 26, 12,  2, T_BOTTOM, 0
    RUN 28, 12,  1, T_BR, 0
    TEXT 25, 3, "NEXT"
    TEXT 1, 3, "SCORE"
    TEXT 1, 8, "LEVEL"
    TEXT 1, 13, "JEWELS"
    TEXT 23, 25, "JEWELBOT"
    .byte 0
