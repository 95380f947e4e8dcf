#version 450
// Constant lookup tables in functions: a 256-entry uint table read with a uniform index
// (the workgroup) and a divergent one (from the data), a table of structs with vector
// members and a nested array, read divergently. The compiler places such tables in
// constant data (never in per-lane scratch); lavapipe gives the reference. The tables
// are the formulas in tools/vkref/src/corpus/memory.rs (const_tables).
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer I { uint d[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uvec4 o[]; };
struct E { vec2 a; uint b; uvec3 c; };

uint table(uint k) {
    const uint T[256] = uint[](
        0x5bd1e995u, 0xc5e690a4u, 0x67bf1bf7u, 0x81778506u, 0x230c0d51u, 0x4cc48b60u, 0xee9d30b3u, 0x0855b9c2u,
        0xaa6a201du, 0xd422aa2cu, 0x75fb2c7fu, 0x97b3d68eu, 0x31485bd9u, 0x5300c2e8u, 0xfcd9493bu, 0x1e91cf4au,
        0xb8a67a85u, 0xda7ef5d4u, 0x44376ee7u, 0xe5cfe836u, 0x07846241u, 0xa15d1890u, 0xc31597a3u, 0x6d2a0cf2u,
        0x8ee28d0du, 0x28bb075cu, 0x4a73bf6fu, 0xf40831beu, 0x15c0a8c9u, 0xb7992e18u, 0xd151a42bu, 0x73665a7au,
        0x9d3ecfb5u, 0x3ef756c4u, 0x588fd117u, 0xfa445b26u, 0x641ce771u, 0x85d56d80u, 0x27edead3u, 0x41a273e2u,
        0xe37afe3du, 0x0d33804cu, 0xaec80b9fu, 0xc8808caeu, 0x6a5915f9u, 0x94119b08u, 0x3626235bu, 0x57fea96au,
        0xf1b720a5u, 0x134fbbf4u, 0xbd043407u, 0xdedcce56u, 0x78954461u, 0x9aadc2b0u, 0x046259c3u, 0xa63ad712u,
        0xc7f36b2du, 0x618bed7cu, 0x8340668fu, 0x2d18ffdeu, 0x4ed172e9u, 0xe8e60838u, 0x0abe8e4bu, 0xb477049au,
        0xd60fa5d5u, 0x77c42ce4u, 0x919c9737u, 0x33551146u, 0x5d6d9891u, 0xff2207a0u, 0x18fa8cf3u, 0xbab30a02u,
        0x244bf45du, 0x46007e6cu, 0xe7d8e1bfu, 0x01916aceu, 0xa3a9ef19u, 0xcd7e5528u, 0x6f36dd7bu, 0x88cf438au,
        0x2a87c6c5u, 0x545c4014u, 0xf6153a27u, 0x102db476u, 0xb1e22d81u, 0xd3baa4d0u, 0x7d7323e3u, 0x9f0b9932u,
        0x38c0114du, 0x5a988b9cu, 0xc4510cafu, 0x666985feu, 0x803e7c09u, 0x21f6f258u, 0x438f686bu, 0xed47eebau,
        0x0f1c7bf5u, 0xa8d4c504u, 0xcaed4d57u, 0x74a5d766u, 0x967a52b1u, 0x3032d9c0u, 0x51cba613u, 0xf3802c22u,
        0x1d58b27du, 0xbf11348cu, 0xd929bfdfu, 0x7afe00eeu, 0xe4b68939u, 0x064f0f48u, 0xa007949bu, 0xc1dc1daau,
        0x6394ece5u, 0x8dad6634u, 0x2f65e047u, 0x493a7a96u, 0xeaf2f7a1u, 0x148b4ef0u, 0xb643c503u, 0xd0184352u,
        0x71d0df6du, 0x93e951bcu, 0x3dbe2acfu, 0x5f76ac1eu, 0xf90f2629u, 0x1ac7bc78u, 0x849c338bu, 0x265488dau,
        0x406d7115u, 0xe225fb24u, 0x03fa6377u, 0xadb2ed86u, 0xcf4b14d1u, 0x690393e0u, 0x8ad81833u, 0x34908642u,
        0x56a90b9du, 0xf061b2acu, 0x123635ffu, 0xb3cebf0eu, 0xdd872359u, 0x7f5fa968u, 0x99142ebbu, 0x3b2d57cau,
        0xa4e5d205u, 0xc6ba4c54u, 0x6072c667u, 0x820b40b6u, 0x23c3f9c1u, 0x4d987710u, 0xef50ef23u, 0x09696572u,
        0xab21e48du, 0xd4f61fdcu, 0x768e90efu, 0x90470a3eu, 0x321f8049u, 0x53d40698u, 0xfdecbdabu, 0x1fa532fau,
        0xb97db735u, 0xdb323144u, 0x44caba97u, 0xe683c3a6u, 0x00584ef1u, 0xa210d400u, 0xcc295253u, 0x6de1d862u,
        0x8fb661bdu, 0x294ee8ccu, 0x4b07731fu, 0xf4dff52eu, 0x16947d79u, 0xb0ac8388u, 0xd26508dbu, 0x7c3d91eau,
        0x9df21825u, 0x3f8a9274u, 0x59432d87u, 0xfb1ba6d6u, 0x64d023e1u, 0x86e8b930u, 0x20a13143u, 0x42764f92u,
        0xec0ec2adu, 0x0dc745fcu, 0xaf9fde0fu, 0xc954505eu, 0x6b6cea69u, 0x952560b8u, 0x36fde7cbu, 0x50b27d1au,
        0xf24acd55u, 0x1c033764u, 0xbddbb0b7u, 0xdf9039c6u, 0x79a8a011u, 0x9b612e20u, 0x05399473u, 0xa6ce1282u,
        0xc0869fddu, 0x625f06ecu, 0x8c17893fu, 0x2e2cf34eu, 0x4fe57699u, 0xe9bdfda8u, 0x0b7262fbu, 0xb50ae80au,
        0xd6c35e45u, 0x709bd894u, 0x925053a7u, 0x3c68ccf6u, 0x5e214501u, 0xfff9c350u, 0x198e3b63u, 0xbb46b1b2u,
        0x251f28cdu, 0x46d7a21cu, 0xe0ec242fu, 0x02a49e7eu, 0xac7d1389u, 0xce358ad8u, 0x6fca01ebu, 0x8982873au,
        0x2b5be375u, 0x55106d84u, 0xf728f6d7u, 0x10e17fe6u, 0xb2b9fa31u, 0xdc4e4040u, 0x7e06cf93u, 0x9fdf54a2u,
        0x3997d5fdu, 0x5bac5f0cu, 0xc564a75fu, 0x673d296eu, 0x80f5b0b9u, 0x228a37c8u, 0x4c42bc1bu, 0xee1b022au,
        0x0fd38465u, 0xa9e81eb4u, 0xcba099c7u, 0x75791316u, 0x970e6f21u, 0x30c6e570u, 0x529f6283u, 0xfc57fbd2u,
        0x1e6c76edu, 0xb824c83cu, 0xd9fd424fu, 0x7bb5c49eu, 0xe54a5da9u, 0x0702d4f8u, 0xa0db2b0bu, 0xc293a15au
    );
    return T[k];
}

E entry(uint k) {
    const E S[40] = E[](
        E(vec2(-3.0, 0.0), 0u, uvec3(0u, 0u, 3u)),
        E(vec2(-2.75, 0.5), 40503u, uvec3(1u, 1u, 10u)),
        E(vec2(-2.5, 1.0), 15470u, uvec3(2u, 4u, 17u)),
        E(vec2(-2.25, 1.5), 55973u, uvec3(3u, 9u, 24u)),
        E(vec2(-2.0, 2.0), 30940u, uvec3(4u, 16u, 31u)),
        E(vec2(-1.75, 2.5), 5907u, uvec3(5u, 25u, 38u)),
        E(vec2(-1.5, 3.0), 46410u, uvec3(6u, 36u, 45u)),
        E(vec2(-1.25, 3.5), 21377u, uvec3(7u, 49u, 52u)),
        E(vec2(-1.0, 4.0), 61880u, uvec3(8u, 64u, 59u)),
        E(vec2(-0.75, 4.5), 36847u, uvec3(9u, 81u, 66u)),
        E(vec2(-0.5, 5.0), 11814u, uvec3(10u, 100u, 73u)),
        E(vec2(-0.25, 5.5), 52317u, uvec3(11u, 121u, 80u)),
        E(vec2(0.0, 6.0), 27284u, uvec3(12u, 144u, 87u)),
        E(vec2(0.25, 6.5), 2251u, uvec3(13u, 169u, 94u)),
        E(vec2(0.5, 7.0), 42754u, uvec3(14u, 196u, 101u)),
        E(vec2(0.75, 7.5), 17721u, uvec3(15u, 225u, 108u)),
        E(vec2(1.0, 8.0), 58224u, uvec3(16u, 256u, 115u)),
        E(vec2(1.25, 8.5), 33191u, uvec3(17u, 289u, 122u)),
        E(vec2(1.5, 9.0), 8158u, uvec3(18u, 324u, 129u)),
        E(vec2(1.75, 9.5), 48661u, uvec3(19u, 361u, 136u)),
        E(vec2(2.0, 10.0), 23628u, uvec3(20u, 400u, 143u)),
        E(vec2(2.25, 10.5), 64131u, uvec3(21u, 441u, 150u)),
        E(vec2(2.5, 11.0), 39098u, uvec3(22u, 484u, 157u)),
        E(vec2(2.75, 11.5), 14065u, uvec3(23u, 529u, 164u)),
        E(vec2(3.0, 12.0), 54568u, uvec3(24u, 576u, 171u)),
        E(vec2(3.25, 12.5), 29535u, uvec3(25u, 625u, 178u)),
        E(vec2(3.5, 13.0), 4502u, uvec3(26u, 676u, 185u)),
        E(vec2(3.75, 13.5), 45005u, uvec3(27u, 729u, 192u)),
        E(vec2(4.0, 14.0), 19972u, uvec3(28u, 784u, 199u)),
        E(vec2(4.25, 14.5), 60475u, uvec3(29u, 841u, 206u)),
        E(vec2(4.5, 15.0), 35442u, uvec3(30u, 900u, 213u)),
        E(vec2(4.75, 15.5), 10409u, uvec3(31u, 961u, 220u)),
        E(vec2(5.0, 16.0), 50912u, uvec3(32u, 1024u, 227u)),
        E(vec2(5.25, 16.5), 25879u, uvec3(33u, 1089u, 234u)),
        E(vec2(5.5, 17.0), 846u, uvec3(34u, 1156u, 241u)),
        E(vec2(5.75, 17.5), 41349u, uvec3(35u, 1225u, 248u)),
        E(vec2(6.0, 18.0), 16316u, uvec3(36u, 1296u, 255u)),
        E(vec2(6.25, 18.5), 56819u, uvec3(37u, 1369u, 6u)),
        E(vec2(6.5, 19.0), 31786u, uvec3(38u, 1444u, 13u)),
        E(vec2(6.75, 19.5), 6753u, uvec3(39u, 1521u, 20u))
    );
    return S[k];
}

int nested(uint i, uint j) {
    const int N[8][5] = int[8][5](
        int[5](-20, -17, -14, -11, -8),
        int[5](-5, -2, 1, 4, 7),
        int[5](10, 13, 16, 19, 22),
        int[5](25, 28, 31, 34, 37),
        int[5](40, 43, 46, 49, 52),
        int[5](55, 58, 61, 64, 67),
        int[5](70, 73, 76, 79, 82),
        int[5](85, 88, 91, 94, 97)
    );
    return N[i][j];
}

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint s = d[g];
    uint u = table(gl_WorkGroupID.x * 37u + 5u);
    uint v = table(s & 255u);
    E e = entry(s % 40u);
    int w = nested((s >> 8) & 7u, (s >> 11) % 5u);
    o[g * 2u] = uvec4(u, v, floatBitsToUint(e.a.x), floatBitsToUint(e.a.y));
    o[g * 2u + 1u] = uvec4(e.b, e.c.x + e.c.y * 3u + e.c.z * 7u, uint(w), 0u);
}
