/* EVEX_REG(kind, i): vector register 16 + i of kind xmm, ymm or zmm, for
 * the ladders that use only registers 16..31 (shim/ladder_evex.S,
 * shim/ladder_avx512.S). */
#define EVEX_REG(kind, i) EVEX_REG_##i(kind)
#define EVEX_REG_0(kind) %kind##16
#define EVEX_REG_1(kind) %kind##17
#define EVEX_REG_2(kind) %kind##18
#define EVEX_REG_3(kind) %kind##19
#define EVEX_REG_4(kind) %kind##20
#define EVEX_REG_5(kind) %kind##21
#define EVEX_REG_6(kind) %kind##22
#define EVEX_REG_7(kind) %kind##23
#define EVEX_REG_8(kind) %kind##24
