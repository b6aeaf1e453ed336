; The title and game screens (drawn whole with rendering off), the title logo that lives in
; the playfield RAM, and the side panel's texts.

.include "defs.inc"

.segment "CODE"

; The title: the game screen's frames and labels, the cartridge's name and PUSH START. The
; logo itself is playfield RAM (draw_glyph) and reaches the screen through the renderer.
draw_title_screen:
    jsr draw_game_screen
    lda #<title_list
    sta ptr
    lda #>title_list
    sta ptr + 1
    jmp flush_list

; After a continue: the logo on a black screen (rendering off).
draw_continue_screen:
    jsr clear_screen
    lda #<continue_list
    sta ptr
    lda #>continue_list
    sta ptr + 1
    jmp flush_list

; The game screen: frames, labels, counters and an empty playfield (every cell drawn,
; shown = 0, the next box to be drawn).
draw_game_screen:
    jsr clear_screen
    lda #<game_list
    sta ptr
    lda #>game_list
    sta ptr + 1
    jsr flush_list
    lda #<left_edge
    sta ptr
    lda #>left_edge
    sta ptr + 1
    jsr flush_list
    ; Every playfield cell empty (palette 3, which clear_screen gave every cell).
    lda #0
    ldy #PF_SIZE - 1
:   sta shown, y
    dey
    bpl :-
    lda #>($2000 + PF_TY * 32 + PF_TX)
    sta vaddr + 1
    lda #<($2000 + PF_TY * 32 + PF_TX)
    sta vaddr
    ldx #26                 ; tile rows
@line:
    lda vaddr + 1
    sta PPUADDR
    lda vaddr
    sta PPUADDR
    txa
    and #1                  ; even counts: a cell's top half
    eor #1
    asl a
    clc
    adc #CELL_TILES
    ldy #6
:   sta PPUDATA
    clc
    adc #1
    sta PPUDATA
    sec
    sbc #1
    dey
    bne :-
    NEXT_VRAM_ROW
    dex
    bne @line
    lda #$FF
    sta shown_next
    sta shown_next + 1
    sta shown_next + 2
    jsr write_hud
    jsr write_top
    jsr flush_now
    lda #TXT_NONE
    sta text_shown
    rts

; The title logo's glyph `glyph` in colour `anim`, in playfield rows 1-7 (all eight bytes of
; each row, border bytes included).
draw_glyph:
    lda glyph
    asl a
    asl a
    asl a
    sta tmp2                ; index of the glyph's first row
    ldy #0
@row:
    ldx tmp2
    lda glyph_rows, x
    sta tmp0
    tya
    clc
    adc #3                  ; playfield row 1 is the fourth row of bytes
    asl a
    asl a
    asl a
    tax
    lda #8
    sta tmp1
@byte:
    asl tmp0
    lda #0
    bcc :+
    lda anim
:   sta playfield, x
    inx
    dec tmp1
    bne @byte
    inc tmp2
    iny
    cpy #7
    bne @row
    rts

; Shows side-panel text A (TXT_*) unless it is already shown.
show_text:
    cmp text_shown
    beq @done
    sta text_shown
    asl a
    tax
    lda text_lists, x
    sta ptr
    lda text_lists + 1, x
    sta ptr + 1
@entry:
    ldy #0
    lda (ptr), y
    beq @done
    jsr write_text_entry
    lda ptr
    clc                     ; + length + 3
    adc tmp1
    sta ptr
    bcc @entry
    inc ptr + 1
    bne @entry
@done:
    rts

.segment "RODATA"

; The logo: the six jewels' shapes and the X, one glyph each (8 bytes: 7 rows and a pad),
; bit 7 = the row's left border byte.
glyph_rows:
    ; ring
    .byte %10111101, %01000010, %01000010, %01000010, %01000010, %01000010, %10111101, 0
    ; diamond
    .byte %10011001, %00100100, %01000010, %01000010, %01000010, %00100100, %10011001, 0
    ; triangle
    .byte %10011001, %00011000, %00111100, %00111100, %01111110, %01111110, %11111111, 0
    ; triangle, upside down
    .byte %11111111, %01111110, %01111110, %00111100, %00111100, %00011000, %10011001, 0
    ; hexagon
    .byte %10111101, %01100110, %11000011, %11000011, %11000011, %01100110, %10111101, 0
    ; emerald cut
    .byte %10111101, %01111110, %01100110, %01100110, %01100110, %01111110, %10111101, 0
    ; the X
    .byte %11000011, %01100110, %00111100, %00011000, %00111100, %01100110, %11000011, 0

text_lists:
    .word text_none, text_pause, text_over

text_none:
    TEXT PANEL_TX + 1, 22, "     "
    TEXT PANEL_TX + 1, 23, "     "
    TEXT PANEL_TX + 1, 24, "     "
    TEXT PANEL_TX + 1, 25, "     "
    .byte 0
text_pause:
    TEXT PANEL_TX + 1, 22, "PAUSE"
    .byte 0
text_over:
    TEXT PANEL_TX + 1, 22, "GAME "
    TEXT PANEL_TX + 1, 23, "OVER "
    TEXT PANEL_TX + 1, 24, "PUSH "
    TEXT PANEL_TX + 1, 25, "START"
    .byte 0

; After a continue: the logo on a black screen.
continue_list:
    TEXT 12, 13, "JEWELBOT"
    TEXT 9, 15, "OPEN CARTRIDGE"
    .byte 0

title_list:
    TEXT PANEL_TX + 1, 22, "PUSH"
    TEXT PANEL_TX + 1, 23, "START"
    TEXT PANEL_TX, 25, "OPEN"
    TEXT PANEL_TX, 26, "CARTRIDGE"
    .byte 0

game_list:
    ; Playfield frame (x 45-52 and 149-156 on screen).
    RUN PF_TX - 1,  1,  1, T_TL, 0
    RUN PF_TX,      1, 12, T_TOP, 0
    RUN PF_TX + 12, 1,  1, T_TR, 0
    RUN PF_TX - 1,  2, 26, T_LEFT, $80
    RUN PF_TX + 12, 2, 26, T_RIGHT, $80
    RUN PF_TX - 1, 28,  1, T_BL, 0
    RUN PF_TX,     28, 12, T_BOTTOM, 0
    RUN PF_TX + 12, 28, 1, T_BR, 0
    ; Next box.
    RUN NEXT_TX - 1, NEXT_TY - 1, 1, T_TL, 0
    RUN NEXT_TX,     NEXT_TY - 1, 2, T_TOP, 0
    RUN NEXT_TX + 2, NEXT_TY - 1, 1, T_TR, 0
    RUN NEXT_TX - 1, NEXT_TY,     6, T_LEFT, $80
    RUN NEXT_TX + 2, NEXT_TY,     6, T_RIGHT, $80
    RUN NEXT_TX - 1, NEXT_TY + 6, 1, T_BL, 0
    RUN NEXT_TX,     NEXT_TY + 6, 2, T_BOTTOM, 0
    RUN NEXT_TX + 2, NEXT_TY + 6, 1, T_BR, 0
    TEXT NEXT_TX - 1, NEXT_TY + 8, "NEXT"
    TEXT PANEL_TX, 2, "SCORE"
    TEXT PANEL_TX, 7, "LEVEL"
    TEXT PANEL_TX, 12, "JEWELS"
    TEXT PANEL_TX, 17, "TOP"
    TEXT PANEL_TX, 27, "JEWELBOT"
    .byte 0
; The five pixels scrolled in at the left edge come from name table 1's last column.
left_edge:
    .byte 30 | $80, $24, $1F
    .res 30, $20
    .byte 0
