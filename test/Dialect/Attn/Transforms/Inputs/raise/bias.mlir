#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> ()>
#map3 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @attention(%arg0: tensor<2x4x33x64xf16>, %arg1: tensor<2x4x33x64xf16>, %arg2: tensor<2x4x33x64xf16>) -> tensor<2x4x33x64xf16> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<1.250000e-01> : tensor<f16>
    %cst_2 = arith.constant dense<"0x0E3F6736D43B7B40783FD1BB9A3BD8B09BAE92369C30D13D173ACA2F1A375735FA3D91B20235D5BA1BC13B39EA3AF0B98A40D1BDDB29FDB1223EE13DF5300D361ABBECBF91B50131EC3CCF3C32B6D6B432BCAEBDD3BECE3F14B802B703BD383A75BECFB22ABB313616B8B9BC37A7DA36422CD73413B9CEB561B9C1B581BAE8BEAD316EB685BE683742BBA62AD53921308F3CF0BC70367AB9F7BAA1B8FCB4302BA9BC353B733725BEF43D953FB73CC2B148BC383C73B6E43CAA32D03BB435A7396021253F10306F36883F64BD15BDC13BB1BCC63F9EB6FBB9B13FEC3D783F403BE4BAA43F4AB46B3A943BF6B0EA38613B063666BCC6344E3D8EB9CAB0F6B6663F6139853629BA503865B9132816B969399D38AAB256365FBCF7BD083755311539C4408E3B4DBB783C43BD63B75EACDA3EF5B99DBA4DAE4FB9823C52BC97BC01B7F8B7B83F983B9A2DE7BCC13A00BC2EBEC13C12355E3B1A35DB3A35B923BC74396DBA84B94AB77A24AAB580BD26B972C0003969BE6BBCAD2AEBB92C3E2CBD463407A9ACBC30387DB12D3A973A5440593DE8B5A9B3663C3E391F3978BE3AA6E7B97B3448AE483B13354A3A76B78EBB90B65BA41136854069A9A6BB89B56BB7B4372ABE0C2C02316E33C7B89DB3B2BDE5B758B8A836A0BC403AFA3D24C0D2366A3919B95BB641B0C4B4F2B4B4BE9C3C523C82BADEBD2B389BB88B301CB588398F39CEB989BD55BEE238C1BC0EB8C5B8BBAABFBF0A323138A92DF9B43C2E62368CC1D33F3E3638B941B6E6376EAF10C0214013AF153C89B9253E9534DF382EBCD83C8539353D06B9B2B79C403DBC5AB08C3C412EAA3864B6EC353ABDA23E90AF71B955395FB756BD63BD8D391BB147B0503C82BCD8B928B60A2E66A997B4E3ABDEAEC2B981BA643421BBA1BCFFB40CB18340A3B98C3BFA39C1BC303ABCBC51C1DA3806BF373779B9A33E463C41B781B9DBBC0EB77CB4D6B50431A13898351DBAC0BD753D84B938B92BB85FBFA6B7ADB7F6389639B91B743B703504A426311AB251B649B483BC7D34F2BBBC3AFCB3562AE737263948BE9FB20B3BCBBE323683C017BCF228A0BEE2BBE3BD983E41318A3820B3A8B577BEABB418BADD3A903CDE3DD23ACAB877BC223AB33513BFB035843A8B2BECB176BAC9BD673AF2B479B3EE3E7A39EF358C30143EE13E703BA83830C0EB2F2AB0032E8B3B7BC18EB8523478B7ABBDF43A6E34C5BB0935933A6B1D683A022D53B6A3BC80AD3832023B5EAF5237B8BB43BA11AF38BC903A693777346C350B4080B767C061327AAA24B8D5BB07B7CE3106B8D340AFBB58BA94C0063408C051B869B4AEB9F53EF53B473D0FBB843CF0372C3A1E3C45BBCAB6E73A50C10E3E6D38DAA90E331FBC99B5673C313D6441BBAC45B91DB812BCFCAC203662A8633C7FB38FB5A6B888BE45BEB7BC353D293B803D54BDE0BF48B9A031FB37313C8C34F83E20B34EBBBABE1DBBBF331CBB7E3BA63DBDC0EA3A7BC06D36E63C272C1EBDAFB830B4D5B17EB208AFD532D6BCBFB3133E28B61AB7503C1EC1BA3C0EB93F312A2E8A3B48B46DB9313DBAC0352564BD18BA0640B5A93E3220BFD5B94A32AD35EF386B203738433752BFBD28253AB838D2B572BA79BC32B0883CCFBF47B98FBC483A6FB888B7F1B2203747B618C25938063706B356BCA135113685B7EFB271BBB7B134BEAD368EBB9F33A0BDB8B812AFA5BE5F2F11B6F8BE37BDD7382A3B39B07A362A334635253D07BE69391DB62DB3D6B401B6E8BCDE31AF3E2FABAC9580B985AF7537EDB543B7743658BB0A34903A713DC9AD783D233CF8BBDFBCE1B41E3CA0ACCEB8353E9734A4C013352938383332374EAC46BDEEB591BB76BB0DBD3D37442E2CB732B9FFA5513C02C008365EB88ABFC8BF4DBB06334A3683BB113CB13D5636BBB87F3C0B3AF03A40B9ABC13C4072BE94A8C3404A35983B02BE1CBF43B85D3C8AB55BBA5632543CC8BDD8BC4FBA613C843344407E3B7EA80F3DC532A4B9713992B9A5B4503D7BAE6DBA6EB7163C6CB831B615B8E3312BB668BE19BB76BBF93C803AB3380BB887BA0FB835BCFF407EC0833823BDAEAEE7BBB6BC90BC053F41B020BA72384D21C3394CBFDC342E3AA5BE2C37C93E9BA3923A5D39A9B9172945BE39B74034C9394D26C33969BC82AEEF24663FDAB2FCB777255ABB2B32D7B52ABF80AB15B588BE4CACF53D2C38E5385EBDA137C0303B38C33670BD4DA910BA69AA2EBB403DDFBA31BBC62C4FBCCBB6A4BAA53D493A5BAB42B6873B7C36F837B5A6C1BE33AF43B829390C3C43B97F37F23E57B9BA3ED2BAE125B5A1E321B4BABBB857B93B35483574407C3D14B83335FA3BD62775AC9A2AF03AC9BA36B58737FC34AB33EBB5C83B454081362FB20C3A50B8FFB933282AC19EBC91B56ABD21BCFDB692BE7FB648B881269E3C853164255D2E473311BC58AFF1347CBDED3A533C0DB9B9B307BB98393FBC1FB3DFBA862A2DBF4E3DB8BBAB2BCDB219BA1ABB7E3B35B8573469BA2DB98E37713B9CB1B0BDFE3FDABA2BBE304177B6D9BD78B9E1351732D0BA4A3F2CB8BDBCB03B513D8ABA9BBD1F3C18C0E8BCBD3B16AB39B4A535E4B032BD1B3D4D3D9232C729AE406CB427B4D535E33D5F3E23B4EF3483BDFEB4B9BA07BCBA3E57BA41B8DB35313DB3378541C7AC24346934BD3D0F3870AF94BBD2339B3D91B63B38E033E83A70BAB1401EBDD9B5813BBF34A43AF0B7CAAC4322473E8639603A43B9C03B38338E3D0740E9B480B6EABA98B01DB6C135A0B0C9B5423C81BBEE367FB6CC398B3DD9B40E37B93165BAB533A0349B3659B2072E97BCBBB57338243BC2B6B42E4C337332543846BF50AAA63300BCB23E2B31413E53BA42BB2D33B7BEE132392E103C9C39AEB664BCD93E56BA2FBC57BC783C27B808BA68309FB26DB9083A433CE23B233A71361BBFAD3ED534DE38763CBC3DB236F836CBB83C28D5BAC2B926BBFEB0323C5842103265BD0F3DD0B449B9B732F6BC1E33A8AD4C2E1A36522C2F248D34A53620BCB8BDE4ABBBBD9A2D833BDB3831BCE2BA41356CB611B5C638E6BB6BB667BA2CBCDBBA6B39"> : tensor<33x33xf16>
    %0 = tensor.empty() : tensor<2x4x64x33xf16>
    %transposed = linalg.transpose ins(%arg1 : tensor<2x4x33x64xf16>) outs(%0 : tensor<2x4x64x33xf16>) permutation = [0, 1, 3, 2] 
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<2x4x33x64xf16> into tensor<8x33x64xf16>
    %collapsed_3 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x4x64x33xf16> into tensor<8x64x33xf16>
    %1 = tensor.empty() : tensor<8x33x33xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8x33x33xf32>) -> tensor<8x33x33xf32>
    %3 = linalg.batch_matmul ins(%collapsed, %collapsed_3 : tensor<8x33x64xf16>, tensor<8x64x33xf16>) outs(%2 : tensor<8x33x33xf32>) -> tensor<8x33x33xf32>
    %4 = tensor.empty() : tensor<8x33x33xf16>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3 : tensor<8x33x33xf32>) outs(%4 : tensor<8x33x33xf16>) {
    ^bb0(%in: f32, %out: f16):
      %28 = arith.truncf %in : f32 to f16
      linalg.yield %28 : f16
    } -> tensor<8x33x33xf16>
    %expanded = tensor.expand_shape %5 [[0, 1], [2], [3]] output_shape [2, 4, 33, 33] : tensor<8x33x33xf16> into tensor<2x4x33x33xf16>
    %6 = tensor.empty() : tensor<2x4x33x33xf16>
    %7 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded, %cst_1 : tensor<2x4x33x33xf16>, tensor<f16>) outs(%6 : tensor<2x4x33x33xf16>) {
    ^bb0(%in: f16, %in_8: f16, %out: f16):
      %28 = arith.mulf %in, %in_8 : f16
      linalg.yield %28 : f16
    } -> tensor<2x4x33x33xf16>
    %8 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7, %cst_2 : tensor<2x4x33x33xf16>, tensor<33x33xf16>) outs(%6 : tensor<2x4x33x33xf16>) {
    ^bb0(%in: f16, %in_8: f16, %out: f16):
      %28 = arith.addf %in, %in_8 : f16
      linalg.yield %28 : f16
    } -> tensor<2x4x33x33xf16>
    %9 = tensor.empty() : tensor<2x4x33x33xf32>
    %10 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8 : tensor<2x4x33x33xf16>) outs(%9 : tensor<2x4x33x33xf32>) {
    ^bb0(%in: f16, %out: f32):
      %28 = arith.extf %in : f16 to f32
      linalg.yield %28 : f32
    } -> tensor<2x4x33x33xf32>
    %11 = tensor.empty() : tensor<2x4x33xi64>
    %12 = linalg.fill ins(%c0_i64 : i64) outs(%11 : tensor<2x4x33xi64>) -> tensor<2x4x33xi64>
    %13 = tensor.empty() : tensor<2x4x33xf32>
    %14 = linalg.fill ins(%cst_0 : f32) outs(%13 : tensor<2x4x33xf32>) -> tensor<2x4x33xf32>
    %15:2 = linalg.generic {indexing_maps = [#map1, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%10 : tensor<2x4x33x33xf32>) outs(%14, %12 : tensor<2x4x33xf32>, tensor<2x4x33xi64>) {
    ^bb0(%in: f32, %out: f32, %out_8: i64):
      %28 = linalg.index 3 : index
      %29 = arith.index_cast %28 : index to i64
      %30 = arith.maximumf %in, %out : f32
      %31 = arith.cmpf ogt, %in, %out : f32
      %32 = arith.select %31, %29, %out_8 : i64
      linalg.yield %30, %32 : f32, i64
    } -> (tensor<2x4x33xf32>, tensor<2x4x33xi64>)
    %expanded_4 = tensor.expand_shape %15#0 [[0], [1], [2, 3]] output_shape [2, 4, 33, 1] : tensor<2x4x33xf32> into tensor<2x4x33x1xf32>
    %16 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%10, %expanded_4 : tensor<2x4x33x33xf32>, tensor<2x4x33x1xf32>) outs(%9 : tensor<2x4x33x33xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %28 = arith.subf %in, %in_8 : f32
      linalg.yield %28 : f32
    } -> tensor<2x4x33x33xf32>
    %17 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%16 : tensor<2x4x33x33xf32>) outs(%9 : tensor<2x4x33x33xf32>) {
    ^bb0(%in: f32, %out: f32):
      %28 = math.exp %in : f32
      linalg.yield %28 : f32
    } -> tensor<2x4x33x33xf32>
    %18 = tensor.empty() : tensor<2x4x33x1xf32>
    %19 = linalg.fill ins(%cst : f32) outs(%18 : tensor<2x4x33x1xf32>) -> tensor<2x4x33x1xf32>
    %20 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%17 : tensor<2x4x33x33xf32>) outs(%19 : tensor<2x4x33x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %28 = arith.addf %in, %out : f32
      linalg.yield %28 : f32
    } -> tensor<2x4x33x1xf32>
    %21 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%17, %20 : tensor<2x4x33x33xf32>, tensor<2x4x33x1xf32>) outs(%9 : tensor<2x4x33x33xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %28 = arith.divf %in, %in_8 : f32
      linalg.yield %28 : f32
    } -> tensor<2x4x33x33xf32>
    %22 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%21 : tensor<2x4x33x33xf32>) outs(%6 : tensor<2x4x33x33xf16>) {
    ^bb0(%in: f32, %out: f16):
      %28 = arith.truncf %in : f32 to f16
      linalg.yield %28 : f16
    } -> tensor<2x4x33x33xf16>
    %collapsed_5 = tensor.collapse_shape %22 [[0, 1], [2], [3]] : tensor<2x4x33x33xf16> into tensor<8x33x33xf16>
    %collapsed_6 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x4x33x64xf16> into tensor<8x33x64xf16>
    %23 = tensor.empty() : tensor<8x33x64xf32>
    %24 = linalg.fill ins(%cst : f32) outs(%23 : tensor<8x33x64xf32>) -> tensor<8x33x64xf32>
    %25 = linalg.batch_matmul ins(%collapsed_5, %collapsed_6 : tensor<8x33x33xf16>, tensor<8x33x64xf16>) outs(%24 : tensor<8x33x64xf32>) -> tensor<8x33x64xf32>
    %26 = tensor.empty() : tensor<8x33x64xf16>
    %27 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%25 : tensor<8x33x64xf32>) outs(%26 : tensor<8x33x64xf16>) {
    ^bb0(%in: f32, %out: f16):
      %28 = arith.truncf %in : f32 to f16
      linalg.yield %28 : f16
    } -> tensor<8x33x64xf16>
    %expanded_7 = tensor.expand_shape %27 [[0, 1], [2], [3]] output_shape [2, 4, 33, 64] : tensor<8x33x64xf16> into tensor<2x4x33x64xf16>
    return %expanded_7 : tensor<2x4x33x64xf16>
  }
}

